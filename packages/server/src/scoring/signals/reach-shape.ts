import type { Signal } from '../engine-types.ts';
import type { Features } from '../features.ts';
import { UNTAILED_KURTOSIS, UNTAILED_LAST_TENTH } from '../reach-shape.ts';
import { emit, type RuleInfo } from './types.ts';

/**
 * `mouse_reaches_untailed`: the page's reaches spread their path over their time as a path
 * library does, evenly, where a hand piles it up early and trails off into the target
 * (reach-shape.ts). Tuned on people aiming at targets (a mouse-tracking study, odd subject
 * numbers; eval/aiming-bots) beside the npm path libraries offline and recorded in real chromium:
 * docs/signals.md.
 */
export const REACH_SHAPE = {
  /** Reaches a page needs before their shapes are judged (a library draws every one from one model). */
  minReaches: 3,
  /** …the longest this many times the shortest or more (path length), as `AIMING.minLengthRatio` (aiming.ts). */
  minLengthRatio: 4.5,
  /**
   * Sampling the shape needs (median interval between the reaches' samples, ms): moments of the
   * time at which the path is covered survive a browser's jitter and ghost-cursor's own 16–60 ms
   * steps, not a remote desktop's ~94 ms, where a reach is a handful of positions.
   */
  maxIntervalMs: 80,
};

/**
 * Every reach of the page (REACH_SHAPE.minReaches or more, the longest REACH_SHAPE.minLengthRatio times
 * the shortest or more) covered its path evenly over its time: no deceleration tail, flatter than
 * a bell (`untailed`, reach-shape.ts). Abstains (false) on touch and phones, under the reaches
 * needed, and sampled every REACH_SHAPE.maxIntervalMs or slower (a remote desktop, a VM).
 */
export function reachesUntailed(f: Features): boolean {
  const s = f.behavior.reach_shape;
  const a = f.behavior.aiming;
  return (
    !f.ua_mobile &&
    f.behavior.touches === 0 &&
    s.reaches >= REACH_SHAPE.minReaches &&
    s.untailed === s.reaches &&
    a.length_ratio !== null &&
    a.length_ratio >= REACH_SHAPE.minLengthRatio &&
    a.median_interval_ms !== null &&
    a.median_interval_ms <= REACH_SHAPE.maxIntervalMs
  );
}

/**
 * The rule, declared by the aiming family (aiming.ts spreads it into its rules and calls
 * untailedSignals): one family judges the page's reaches, its tells carried and weighed alike.
 */
export const UNTAILED_RULES: Record<string, RuleInfo> = {
  mouse_reaches_untailed: {
    score: 20,
    description: `Every reach of the page to what it pressed covered its path evenly over its time, as a path library steps along its curve: none piled its path up early and trailed off into the target as a hand's aimed reach does (the time at which the path was covered spread flatter than a bell, kurtosis under ${UNTAILED_KURTOSIS}, and the last tenth of the path in under ${Math.round(100 * UNTAILED_LAST_TENTH)} % of the time). Judged on three or more reaches, the longest 4.5 times the shortest or more, sampled every ${REACH_SHAPE.maxIntervalMs} ms or faster; never on touch or a phone. Soft: never enough alone.`,
  },
};

/** `mouse_reaches_untailed` when reachesUntailed holds. */
export function untailedSignals(f: Features): Signal[] {
  if (!reachesUntailed(f)) return [];
  const s = f.behavior.reach_shape;
  return [
    emit({ rules: UNTAILED_RULES }, 'mouse_reaches_untailed', {
      description: `All ${s.reaches} reaches covered their path evenly over their time (the most peaked: kurtosis ${(s.max_kurtosis ?? 0).toFixed(2)}); none trailed off into its target.`,
    }),
  ];
}
