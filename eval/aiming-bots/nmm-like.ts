import { aimedReachSpans } from '../../packages/server/src/scoring/aimed-reaches.ts';
import { readMousePath } from '../../packages/server/src/scoring/mouse-path.ts';
import { primaryFit } from '../../packages/server/src/scoring/reach-swell.ts';

/**
 * A candidate NaturalMouseMotion tell that no rule scores (docs/signals.md, "Measured, not scored:
 * `reach_swell`"): three properties of different kinds at once, each from the library's design.
 * - swell (path geometry): the middle measured primary (reach-swell.ts `primaryFit`) within
 *   `maxMedianResidual` of its chord of one sinusoidal swell, none beyond `maxResidual`;
 * - final approach (timing): the middle reach's time after it first came within `approachShare` of
 *   its chord of where it stopped, over the time it took to get there, `minApproachRatio` or more
 *   (the library's corrections take the primary's time divided by 1.8 again and again, with
 *   20–140 ms rests, whatever the distance left);
 * - false target (where it aimed): a primary ended `minPrimaryOffset` of its chord or more to the
 *   side of where the reach stopped (the library's false targets lie in a square around the target).
 * Tuned on the odd subjects and generator seeds other than eval:aiming-bots' (2026-11-29): it
 * did not hold on the even subjects (see docs), which is why it is measured here and not scored.
 */
export const NMM_LIKE = {
  minPrimaries: 3,
  maxMedianResidual: 0.008,
  maxResidual: 0.05,
  approachShare: 0.1,
  minApproachRatio: 0.5,
  minPrimaryOffset: 0.01,
};

export interface NmmLike {
  primaries: number;
  medianResidual: number | null;
  maxResidual: number | null;
  approachRatio: number | null;
  maxPrimaryOffset: number | null;
  /** All three properties held (NMM_LIKE). */
  meets: boolean;
}

/** The middle value (the upper of two) of a non-empty list, which it sorts. */
const middle = (v: number[]) => v.sort((a, b) => a - b)[v.length >> 1]!;

/** The three properties of a page as the SDK sent it (`behavior.mouse`, `behavior.click_samples`). */
export function nmmLike(evidence: {
  mouse?: unknown;
  click_samples?: readonly (readonly number[])[];
}): NmmLike {
  const path = readMousePath(evidence.mouse);
  const presses = [...(evidence.click_samples ?? [])].sort((a, b) => a[0]! - b[0]!);
  const { t, x, y } = path;
  const residuals: number[] = [];
  const approaches: number[] = [];
  let offset = 0;
  for (const [start, last] of aimedReachSpans(path, presses)) {
    const rest = start > 0 ? start - 1 : start;
    const fit = primaryFit(path, rest, last);
    if (fit === null) continue;
    residuals.push(fit.residual);
    const cx = x[last]! - x[rest]!;
    const cy = y[last]! - y[rest]!;
    const chord = Math.hypot(cx, cy);
    const across = (x[fit.end]! - x[last]!) * cy - (y[fit.end]! - y[last]!) * cx;
    offset = Math.max(offset, Math.abs(across) / (chord * chord));
    let k = start;
    while (k < last && Math.hypot(x[k]! - x[last]!, y[k]! - y[last]!) > NMM_LIKE.approachShare * chord) k++;
    approaches.push((t[last]! - t[k]!) / Math.max(1, t[k]! - t[start]!));
  }
  if (residuals.length === 0)
    return {
      primaries: 0,
      medianResidual: null,
      maxResidual: null,
      approachRatio: null,
      maxPrimaryOffset: null,
      meets: false,
    };
  const maxResidual = Math.max(...residuals);
  const medianResidual = middle(residuals);
  const approachRatio = middle(approaches);
  return {
    primaries: residuals.length,
    medianResidual,
    maxResidual,
    approachRatio,
    maxPrimaryOffset: offset,
    meets:
      residuals.length >= NMM_LIKE.minPrimaries &&
      medianResidual <= NMM_LIKE.maxMedianResidual &&
      maxResidual <= NMM_LIKE.maxResidual &&
      approachRatio >= NMM_LIKE.minApproachRatio &&
      offset >= NMM_LIKE.minPrimaryOffset,
  };
}
