import { REACH_MIN_PX, REACH_MIN_SPEEDS, type ReachSpans } from './aimed-reaches.ts';
import type { MousePath } from './mouse-path.ts';
import { primaryEnd } from './reach-primary.ts';
import { withoutStalls } from './reach-stalls.ts';

/**
 * The shape of the page's aimed reaches over time (docs/signals.md, `mouse_reaches_untailed`):
 * how a reach spreads its path over its duration. A hand's aimed reach is a sum of lognormal
 * speed pulses (Plamondon's kinematic theory): a fast primary submovement, peaked and skewed, and
 * slow corrective ones into the target — its path piles up early and trails off in a long
 * deceleration tail. A lognormal pulse alone has a kurtosis of 3 or more (of the time at which
 * the path is covered); a minimum-jerk bell, the most symmetric a hand draws, 2.33. ghost-cursor
 * steps along a Bezier curve at uniform parameter steps and WindMouse at one speed: their path is
 * covered evenly over the time (a uniform spread: kurtosis 1.8) and the last tenth of the path
 * takes a tenth of the time.
 *
 * Reaches are the ones aiming-metrics.ts judges (a press within AIMED_PRESS_MS and AIMED_PRESS_PX
 * of where a movement since the last pause stopped, the whole way since the previous press, a
 * chord of REACH_MIN_PX or more, REACH_MIN_SPEEDS intervals or more): `aimedReachSpans`.
 */
export interface ReachShapeMetrics {
  /** Reaches measured. */
  reaches: number;
  /**
   * Reaches with no deceleration tail: the time at which their path was covered is spread flatter
   * than a bell (kurtosis under UNTAILED_KURTOSIS) and their last tenth of path took under
   * UNTAILED_LAST_TENTH of their time — over the whole reach, or up to where it turned back
   * (`primaryEnd`, reach-primary.ts).
   */
  untailed: number;
  /** The highest kurtosis over the reaches (null without a reach): how peaked the most hand-like one was. */
  max_kurtosis: number | null;
}

/**
 * Flatter than a bell: a minimum-jerk speed profile (the most symmetric a hand draws) has a
 * kurtosis of 2.33, a lognormal pulse 3 or more, an even speed 1.8. People aiming (KH2017, odd
 * subjects): the 5th percentile of their reaches 1.7, the median 3.2, and on a page of three
 * reaches at least one at 2.3 or more on 98–99 % of pages.
 */
export const UNTAILED_KURTOSIS = 2.3;
/**
 * …and the last tenth of the path took under this share of the reach's time (an even speed: a
 * tenth; people: a median of 28 %, the final approach and its corrections).
 */
export const UNTAILED_LAST_TENTH = 0.2;

export const REACH_SHAPE_THRESHOLDS = {
  SHAPE_REACH_MIN_PX: REACH_MIN_PX,
  SHAPE_REACH_MIN_SPEEDS: REACH_MIN_SPEEDS,
  UNTAILED_KURTOSIS,
  UNTAILED_LAST_TENTH,
};

export const NO_REACH_SHAPE: ReachShapeMetrics = { reaches: 0, untailed: 0, max_kurtosis: null };

/** The shapes over time of the page's aimed reaches (`aimedReachSpans` over `path`, one per press). */
export function reachShapeMetrics(path: MousePath, spans: ReachSpans): ReachShapeMetrics {
  let reaches = 0;
  let untailed = 0;
  let maxKurtosis = Number.NEGATIVE_INFINITY;
  for (const [start, last] of spans) {
    // On the reach's own pace: a starved input program's stalls taken out (reach-stalls.ts).
    const paced = withoutStalls(path, start, last);
    const shape = spreadOverTime(paced, start, last);
    if (shape === null) continue;
    reaches++;
    maxKurtosis = Math.max(maxKurtosis, shape.kurtosis);
    // Untailed over the whole reach, or up to where it turned back (reach-primary.ts): a path
    // library's slow correction after its overshoot is no hand's deceleration tail.
    const turned = primaryEnd(paced, start, last);
    if (isUntailed(shape) || (turned < last && isUntailed(spreadOverTime(paced, start, turned)))) untailed++;
  }
  return reaches === 0 ? NO_REACH_SHAPE : { reaches, untailed, max_kurtosis: maxKurtosis };
}

/** Flatter than a bell (UNTAILED_KURTOSIS) with no deceleration tail (UNTAILED_LAST_TENTH). */
function isUntailed(shape: { kurtosis: number; lastTenth: number } | null): boolean {
  return shape !== null && shape.kurtosis < UNTAILED_KURTOSIS && shape.lastTenth < UNTAILED_LAST_TENTH;
}

/**
 * How the reach from `start` to `last` spread its path over its time: each move's length placed
 * at the middle of its interval, the kurtosis of those times (the speed profile read as a
 * distribution over time: moments, so a browser's late and doubled events barely move it), and
 * the share of the reach's time its last tenth of path took. Null without length or time.
 */
export function spreadOverTime(
  path: MousePath,
  start: number,
  last: number,
): { kurtosis: number; lastTenth: number } | null {
  const { t, len } = path;
  const t0 = t[start]!;
  const duration = t[last]! - t0;
  let length = 0;
  let m1 = 0;
  for (let i = start + 1; i <= last; i++) {
    length += len[i]!;
    m1 += len[i]! * ((t[i]! + t[i - 1]!) / 2 - t0);
  }
  if (length <= 0 || duration <= 0) return null;
  m1 /= length;
  let m2 = 0;
  let m4 = 0;
  let covered = 0;
  let tenthAt = t[last]!;
  const toTenth = 0.9 * length;
  for (let i = start + 1; i <= last; i++) {
    const d = (t[i]! + t[i - 1]!) / 2 - t0 - m1;
    const d2 = d * d;
    m2 += len[i]! * d2;
    m4 += len[i]! * d2 * d2;
    const next = covered + len[i]!;
    if (covered < toTenth && next >= toTenth)
      tenthAt = t[i - 1]! + ((toTenth - covered) / len[i]!) * (t[i]! - t[i - 1]!);
    covered = next;
  }
  m2 /= length;
  m4 /= length;
  if (m2 <= 0) return null;
  return { kurtosis: m4 / (m2 * m2), lastTenth: (t[last]! - tenthAt) / duration };
}
