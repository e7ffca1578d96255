import type { BehaviorEvidence } from '@warden/protocol';
import { ruleBudget } from '../../packages/server/src/rules/budget.ts';
import { EMPTY_RULESET } from '../../packages/server/src/rules/ruleset.ts';
import { behaviorMetrics } from '../../packages/server/src/scoring/behavior-metrics.ts';
import { decide } from '../../packages/server/src/scoring/decide-event.ts';
import { DEFAULT_FAMILIES, hardRules } from '../../packages/server/src/scoring/ruleset.ts';
import { sparseUpdates } from '../../packages/server/src/scoring/signals/behavior-tells.ts';
import { baseFeatures } from '../../packages/server/src/scoring/test-fixtures.ts';
import { DEVICE_TRANSFORMS, type DeviceTransform } from './device-transforms.ts';
import { humanHold } from './human.ts';
import { typeText } from './input.ts';
import { PageRecorder } from './recorder.ts';
import { Rng } from './rng.ts';
import { loadTraces, type Trace } from './traces.ts';

/**
 * People on other devices, at engine level: recorded movements (DELBOT-Mouse), transformed as
 * another device or person would deliver them (device-transforms.ts), go through the eval's model
 * of the SDK recorder (recorder.ts: throttle, rounding, `pointer_steps`) into `behavior`, and the
 * pure engine (`decide`, every default family) scores the login. Only behaviour changes between
 * runs: the device is a clean desktop Chrome.
 */

/** Traces per page: one to reach each of the login's email, password and submit. */
export const TRACES_PER_PAGE = 3;

/** The behaviour of one login whose three approaches are `traces`, each transformed. */
export function loginBehavior(
  traces: readonly Trace[],
  transform: DeviceTransform,
  seed: number,
): BehaviorEvidence {
  const rng = new Rng(seed);
  const rec = new PageRecorder();
  const typing = [18, 11];
  let t = rng.logNormal(1400, 0.4);
  let submit = t;
  for (const [i, trace] of traces.entries()) {
    const moves = transform.apply(trace.moves, seed * 31 + i);
    const t0 = moves[0]?.[0] ?? 0;
    const placed = moves.map(([mt, x, y]) => [t + mt - t0, x, y] as const);
    rec.move(placed);
    const end = placed[placed.length - 1] ?? [t, 0, 0];
    t = end[0] + rng.logNormal(90, 0.4);
    const hold = humanHold(rng);
    rec.click(t, end[1], end[2], 0, hold);
    const chars = typing[i] ?? 0;
    if (chars > 0) {
      rec.field('typed', chars);
      t = typeText(rec, rng, t + rng.logNormal(350, 0.4), chars, { kind: 'human-desktop' });
      t += rng.logNormal(450, 0.6);
    } else {
      submit = t + hold + rng.uniform(5, 30);
    }
  }
  return rec.snapshot(submit);
}

const RULES = {
  families: DEFAULT_FAMILIES,
  hard: hardRules(DEFAULT_FAMILIES),
  custom: EMPTY_RULESET,
  budget: ruleBudget(25, () => 0),
};

export interface Scored {
  action: string;
  classification: string;
  risk: number;
  /** Non-zero signals, `rule score`. */
  signals: Array<{ rule: string; score: number }>;
  /** The pointer arrived in jumps (`mouse_sparse_updates`, no risk): the path tells abstained. */
  abstained: boolean;
}

/** The browser decision (/collect) of a clean desktop Chrome login with this behaviour. */
export function scoreLogin(behavior: BehaviorEvidence): Scored {
  const features = baseFeatures({
    surface: 'browser',
    has_behavior: true,
    behavior: behaviorMetrics(behavior),
  });
  const { decision } = decide({ features, event: {}, ip: '203.0.113.7' }, RULES);
  return {
    action: decision.action,
    classification: decision.classification,
    risk: decision.risk_score,
    signals: decision.signals.map((s) => ({ rule: s.rule, score: s.score })),
    abstained: sparseUpdates(features),
  };
}

export interface TransformResult {
  transform: DeviceTransform;
  pages: number;
  /** Pages not allowed (review, challenge, block). */
  nonAllow: number;
  /** Pages with a `bot` classification. */
  bots: number;
  /** Highest risk score of any page. */
  maxRisk: number;
  /** Positive signals: on how many pages each fired. */
  fired: Map<string, number>;
  /** Pages that earned `behavior_humanlike`. */
  humanlike: number;
  /** Pages with a positive signal of the behaviour or input family (a tell, soft or not). */
  flagged: number;
  /**
   * Pages without such a signal whose pointer arrived in jumps (`mouse_sparse_updates`, no risk):
   * the path tells abstained, and the page earned no behaviour trust.
   */
  abstained: number;
}

const TELL_FAMILIES = new Set(
  DEFAULT_FAMILIES.filter((f) => f.name === 'behavior' || f.name === 'input').flatMap((f) =>
    Object.keys(f.rules),
  ),
);

/** Every page of `folder` (a page per trace: it and the next two) under every transform. */
export function runTransforms(
  folder: string,
  transforms: readonly DeviceTransform[] = DEVICE_TRANSFORMS,
): TransformResult[] {
  const traces = loadTraces(folder);
  return transforms.map((transform) => {
    const r: TransformResult = {
      transform,
      pages: 0,
      nonAllow: 0,
      bots: 0,
      maxRisk: 0,
      fired: new Map(),
      humanlike: 0,
      flagged: 0,
      abstained: 0,
    };
    for (let i = 0; i < traces.length; i++) {
      const page = Array.from({ length: TRACES_PER_PAGE }, (_, k) => traces[(i + k) % traces.length]!);
      const s = scoreLogin(loginBehavior(page, transform, i + 1));
      r.pages++;
      if (s.action !== 'allow') r.nonAllow++;
      if (s.classification === 'bot') r.bots++;
      r.maxRisk = Math.max(r.maxRisk, s.risk);
      if (s.signals.some((sig) => sig.score > 0 && TELL_FAMILIES.has(sig.rule))) r.flagged++;
      else if (s.abstained) r.abstained++;
      for (const sig of s.signals) {
        if (sig.score > 0) r.fired.set(sig.rule, (r.fired.get(sig.rule) ?? 0) + 1);
        if (sig.rule === 'behavior_humanlike') r.humanlike++;
      }
    }
    return r;
  });
}

/** A table of `runTransforms` results. */
export function formatResults(title: string, results: readonly TransformResult[]): string {
  const rows = results.map((r) => {
    const fired = [...r.fired.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([rule, n]) => `${rule}×${n}`)
      .join(' ');
    return `${r.transform.id.padEnd(26)} ${String(r.pages).padStart(5)} ${String(r.flagged).padStart(7)} ${String(r.abstained).padStart(9)} ${String(r.nonAllow).padStart(9)} ${String(r.bots).padStart(4)} ${String(r.maxRisk).padStart(8)} ${String(r.humanlike).padStart(9)}  ${fired || '-'}`;
  });
  return [
    title,
    `${'transform'.padEnd(26)} ${'pages'.padStart(5)} ${'flagged'.padStart(7)} ${'abstained'.padStart(9)} ${'non-allow'.padStart(9)} ${'bot'.padStart(4)} ${'max risk'.padStart(8)} ${'humanlike'.padStart(9)}  positive signals (pages)`,
    ...rows,
  ].join('\n');
}
