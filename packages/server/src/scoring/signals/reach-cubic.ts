import type { Signal } from '../engine-types.ts';
import type { Features } from '../features.ts';
import { CUBIC_MAX_RMS_PX, CUBIC_MIN_SAMPLES } from '../reach-cubic.ts';
import { emit, type RuleInfo } from './types.ts';

/**
 * `mouse_reach_cubic`: a reach of the page to what it pressed was one cubic polynomial in time, to
 * the pixel's rounding (reach-cubic.ts): a Bezier curve sampled at even steps of its parameter,
 * one step per fixed interval (@extra/humanize's design). Tuned on people aiming at targets
 * (KH2017, odd subject numbers, through every device transform) beside the npm path libraries
 * (eval/aiming-bots): docs/signals.md.
 */
export const REACH_CUBIC = {
  /**
   * Cubic reaches (behavior.reach_cubic.cubic) a page needs for `mouse_reach_cubic`: one. A hand
   * draws one as the odd exception (the smooth tail of a movement after a touchpad finger lift:
   * 1 of ~24,000 study reaches through every device transform, at 0.42 px).
   */
  minCubicReaches: 1,
  /** …and for `mouse_reaches_cubic`: a library draws every reach from one model, a hand no two so. */
  manyCubicReaches: 2,
};

/**
 * A reach of the page was a cubic in time (REACH_CUBIC.minCubicReaches or more; `mouse_reaches_cubic`
 * at REACH_CUBIC.manyCubicReaches or more). Abstains (false)
 * on touch and phones; a reach under CUBIC_MIN_SAMPLES samples (a remote desktop's few positions,
 * a flick) is not fitted.
 */
export function reachCubic(f: Features): boolean {
  return (
    !f.ua_mobile && f.behavior.touches === 0 && f.behavior.reach_cubic.cubic >= REACH_CUBIC.minCubicReaches
  );
}

/** Declared by the aiming family (aiming.ts spreads it into its rules and calls cubicSignals). */
const CUBIC_WHAT = `one cubic polynomial in time to within ${CUBIC_MAX_RMS_PX} px RMS over ${CUBIC_MIN_SAMPLES} samples or more (no closer with a quintic, and no straight line at one speed): a Bezier curve stepped at even steps of its parameter, one step per fixed interval, as a path library draws it. A hand's reach (a lognormal speed pulse, its corrections, tremor) leaves pixels over any cubic`;

export const CUBIC_RULES: Record<string, RuleInfo> = {
  mouse_reach_cubic: {
    score: 20,
    description: `One reach of the page to what it pressed was ${CUBIC_WHAT}; one reach of a person in ~24,000 was (a touchpad movement's tail after a finger lift). Never on touch or a phone. It withholds behavior_humanlike; alone it reaches review with mouse_reaches_scripted_alone.`,
  },
  mouse_reaches_cubic: {
    score: 30,
    description: `Two or more reaches of the page to what it pressed were each ${CUBIC_WHAT}: no page of a person aiming at targets had two (a mouse-tracking study, both halves, every device transform). Never on touch or a phone; it withholds behavior_humanlike. Review alone.`,
  },
};

/** `mouse_reaches_cubic` (REACH_CUBIC.manyCubicReaches or more), else `mouse_reach_cubic`, when reachCubic holds. */
export function cubicSignals(f: Features): Signal[] {
  if (!reachCubic(f)) return [];
  const c = f.behavior.reach_cubic;
  const rule = c.cubic >= REACH_CUBIC.manyCubicReaches ? 'mouse_reaches_cubic' : 'mouse_reach_cubic';
  return [
    emit({ rules: CUBIC_RULES }, rule, {
      description: `${c.cubic} of ${c.fitted} reaches were one cubic polynomial in time (the closest ${(c.min_rms_px ?? 0).toFixed(2)} px RMS, over ${c.cubic_samples} samples).`,
    }),
  ];
}
