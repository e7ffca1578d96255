import type { ScoringContext } from '@warden/protocol';
import type { Client } from '../lib/api.ts';
import { datacenterIp, residentialIp } from '../lib/network.ts';
import { personEmail } from '../lib/people.ts';
import type { Rng } from '../lib/rng.ts';
import { type BuildEnv, DAY, type Scenario, type Step, sized } from '../lib/types.ts';

/**
 * Plain HTTP clients (no JavaScript, so no fingerprint, behaviour or environment): sign-up and
 * login scripts, scrapers. Most hit the shop's own endpoints, and the shop's backend calls
 * /verify with the address and User-Agent it saw; some post straight to /collect with the public
 * site key and a copied Origin header.
 */
const TOOL_UAS = [
  'python-requests/2.31.0',
  'python-requests/2.32.3',
  'curl/8.5.0',
  'curl/7.88.1',
  'Go-http-client/1.1',
  'Go-http-client/2.0',
  'axios/1.7.7',
  'okhttp/4.12.0',
  'python-httpx/0.27.2',
  'Java/17.0.12',
];

export const SPOOFED_UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
];

function scriptRun(rng: Rng, env: BuildEnv, ua: string, prefix: string): Step[] {
  const steps: Step[] = [];
  const dc = rng.chance(0.7);
  const ip = dc ? datacenterIp(rng) : residentialIp(rng, 'us');
  const client: Client = { ip, userAgent: ua };
  const job = rng.weighted([
    ['signup', 40],
    ['login', 35],
    ['scrape', 25],
  ] as const);
  const direct = rng.chance(0.35);
  let at = env.t0 + rng.uniform(0, env.days * DAY - DAY);
  const n = rng.int(1, 6);
  for (let i = 0; i < n; i++) {
    const accountId = job === 'scrape' ? 'anonymous' : `${prefix}_${rng.hex(8)}`;
    const context: ScoringContext =
      job === 'scrape'
        ? {
            event_type: 'page_view',
            account_id: accountId,
            request_url: `https://shop.example/p/${rng.int(1, 5000)}`,
          }
        : { event_type: job, account_id: accountId, email: personEmail(rng) };
    const when = at;
    if (direct) {
      steps.push({ at: when, run: (api) => api.collect(client, { context }) });
    } else {
      const server: ScoringContext = {
        ...context,
        ip_address: ip,
        user_agent: ua,
        ...(job === 'login' ? { login_succeeded: rng.chance(0.03) } : {}),
      };
      steps.push({ at: when, run: (api) => api.verify({ context: server }) });
    }
    at += rng.uniform(200, 4000);
  }
  return steps;
}

export const scripted: Scenario = {
  family: { id: 'bot_scripted', title: 'Scripted HTTP clients', label: 'bot', section: 'headline' },
  build(env) {
    const steps: Step[] = [];
    for (let i = 0; i < sized(env, 60); i++)
      steps.push(...scriptRun(env.rng, env, env.rng.pick(TOOL_UAS), 'sc'));
    return steps;
  },
};

/** The same scripts with a User-Agent copied from a real browser (the cheapest evasion there is). */
export const scriptedSpoofed: Scenario = {
  family: { id: 'bot_scripted_spoofed_ua', title: 'Scripted, browser UA', label: 'bot', section: 'headline' },
  build(env) {
    const steps: Step[] = [];
    for (let i = 0; i < sized(env, 50); i++)
      steps.push(...scriptRun(env.rng, env, env.rng.pick(SPOOFED_UAS), 'ss'));
    return steps;
  },
};
