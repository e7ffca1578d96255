import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

/** The observed User-Agent (isbot list of crawlers, HTTP clients and tools) and its consistency with the browser. */
export const userAgent: SignalFamily = {
  name: 'user_agent',
  rules: {
    ua_known_bot: {
      score: 85,
      hard: true,
      description: 'The user agent is a known bot, crawler or HTTP library.',
    },
    ua_missing: { score: 30, description: 'No user agent was observed.' },
    ua_mismatch: {
      score: 25,
      description: 'navigator.userAgent differs from the User-Agent header (spoofed in one place).',
    },
    ua_platform_mismatch: {
      score: 25,
      description:
        "The browser's own platform or Client Hints contradict its User-Agent (another OS, phone vs desktop, Chrome version, or Client Hints under a Firefox/Safari UA).",
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    if (f.user_agent.trim() === '') out.push(emit(this, 'ua_missing'));
    else if (f.ua_is_bot && !f.ua_headless) out.push(emit(this, 'ua_known_bot'));
    if (f.ua_js_mismatch) out.push(emit(this, 'ua_mismatch'));
    if (f.ua_inconsistencies.length > 0) {
      out.push(
        emit(this, 'ua_platform_mismatch', {
          description: `The User-Agent is contradicted by: ${f.ua_inconsistencies.join(', ')}.`,
        }),
      );
    }
    return out;
  },
};
