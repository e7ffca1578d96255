import type { Signal } from '../engine-types.ts';
import type { Features } from '../features.ts';
import { SWELL_APPROACH_SHARE } from '../reach-swell.ts';
import { emit, type RuleInfo } from './types.ts';

/**
 * `mouse_reaches_swelled`: three properties of NaturalMouseMotion's design (JoonasVali, Java), of
 * different kinds, on one page (reach-swell.ts, `features.behavior.reach_swell`):
 * - swell (path geometry): the middle measured primary within `maxMedianResidual` of its chord of
 *   one sinusoidal swell, none beyond `maxResidual`;
 * - final approach (timing): the middle reach's time after it first came within a tenth of its
 *   chord of where it stopped, over the time it took to get there, `minApproachRatio` or more;
 * - false target (where it aimed): a primary ended `minPrimaryOffset` of its chord or more to the
 *   side of where the reach stopped.
 * Tuned on the odd KH2017 subjects and generator seeds other than eval:aiming-bots' (2026-11-29);
 * the held-out figures for exactly these values were measured before anyone looked at their hits,
 * and they must not be re-tuned on the even subjects (docs/signals.md).
 */
export const REACH_SWELL = {
  /** Measured primaries (`reach_swell.reaches`) the page needs. */
  minPrimaries: 3,
  maxMedianResidual: 0.008,
  maxResidual: 0.05,
  minApproachRatio: 0.5,
  minPrimaryOffset: 0.01,
};

/**
 * The page's primaries follow one swell, its reaches end in a long final approach, and a primary
 * ended to the side (REACH_SWELL). Abstains (false) on touch and phones, and under
 * REACH_SWELL.minPrimaries measured primaries (short chords, under 8 samples — a remote desktop's
 * few positions —, reaches paused midway).
 */
export function reachesSwelled(f: Features): boolean {
  const s = f.behavior.reach_swell;
  return (
    !f.ua_mobile &&
    f.behavior.touches === 0 &&
    s.reaches >= REACH_SWELL.minPrimaries &&
    s.median_residual !== null &&
    s.median_residual <= REACH_SWELL.maxMedianResidual &&
    s.max_residual !== null &&
    s.max_residual <= REACH_SWELL.maxResidual &&
    s.approach_ratio !== null &&
    s.approach_ratio >= REACH_SWELL.minApproachRatio &&
    s.max_primary_offset !== null &&
    s.max_primary_offset >= REACH_SWELL.minPrimaryOffset
  );
}

export const SWELL_RULES: Record<string, RuleInfo> = {
  mouse_reaches_swelled: {
    score: 30,
    description: `Three or more reaches of the page to what it pressed were drawn as NaturalMouseMotion draws them: the middle primary submovement within ${100 * REACH_SWELL.maxMedianResidual} % of its chord of one sinusoidal swell off the chord (none beyond ${100 * REACH_SWELL.maxResidual} %), the middle reach's final approach (from ${100 * SWELL_APPROACH_SHARE} % of its chord away) ${REACH_SWELL.minApproachRatio} times as long as the way there or longer, and a primary ended ${100 * REACH_SWELL.minPrimaryOffset} % of its chord or more to the side of where the reach stopped (a false target). People aiming at targets (a mouse-tracking study, held-out subjects, every device transform) met it on 0.9 % of pages. Never on touch or a phone; it withholds behavior_humanlike. Review alone.`,
  },
};

/** `mouse_reaches_swelled` when reachesSwelled holds. */
export function swellSignals(f: Features): Signal[] {
  if (!reachesSwelled(f)) return [];
  const s = f.behavior.reach_swell;
  return [
    emit({ rules: SWELL_RULES }, 'mouse_reaches_swelled', {
      description: `${s.reaches} primaries: middle ${(100 * (s.median_residual ?? 0)).toFixed(2)} % of the chord off one swell (worst ${(100 * (s.max_residual ?? 0)).toFixed(2)} %), final approach ${(s.approach_ratio ?? 0).toFixed(2)} of the way there, a primary ended ${(100 * (s.max_primary_offset ?? 0)).toFixed(1)} % of its chord to the side.`,
    }),
  ];
}
