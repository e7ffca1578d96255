import { readFileSync } from 'node:fs';
import { ruleBudget } from '../../rules/budget.ts';
import { EMPTY_RULESET } from '../../rules/ruleset.ts';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { decide } from '../decide-event.ts';
import { DEFAULT_FAMILIES, hardRules } from '../ruleset.ts';
import { baseFeatures } from '../test-fixtures.ts';

/**
 * Sign-in pages recorded in real chromium by `eval:browsers` and rebuilt as the SDK sends them
 * (eval/browsers/recorded-pages.ts), in `fixtures/xdotool-paths*.json`, and their decisions by the
 * default rule set with no custom rules (as eval/lib/people-robustness.ts scores a login).
 */
export interface RecordedSession {
  setup: string;
  run?: number;
  load?: string;
  clock?: 'handler' | 'event';
  mouse: number[][];
  clicks: number[][];
  pointer_steps?: { moving: number; sparse: number } | null;
}

const RULES = {
  families: DEFAULT_FAMILIES,
  hard: hardRules(DEFAULT_FAMILIES),
  custom: EMPTY_RULESET,
  budget: ruleBudget(25, () => 0),
};

/** The sessions of one fixture file of `fixtures/`. */
export function recordedSessions(file: string): RecordedSession[] {
  const url = new URL(`./fixtures/${file}`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { sessions: RecordedSession[] }).sessions;
}

/** A recorded page's behaviour measurements, as the SDK's evidence of it is measured. */
export function recordedBehavior(s: RecordedSession) {
  return behaviorMetrics({
    mouse: s.mouse,
    click_samples: s.clicks,
    mouse_moves: s.mouse.length,
    clicks: s.clicks.length,
    ...(s.pointer_steps ? { pointer_steps: s.pointer_steps } : {}),
  });
}

/** A recorded page's decision as a clean desktop login. */
export function recordedDecision(s: RecordedSession) {
  const behavior = recordedBehavior(s);
  const features = baseFeatures({ surface: 'browser', has_behavior: true, behavior });
  return decide({ features, event: {}, ip: '203.0.113.7' }, RULES).decision;
}
