/**
 * Movement time against distance over a page's aimed reaches (docs/signals.md,
 * `mouse_speed_ignores_distance`). A hand obeys Fitts' law: the time of a reach grows with the log
 * of its distance (MT = a + b·log2(D/W + 1)), so a reach ten times longer takes two to four times
 * longer, and people scatter about that line from reach to reach. WindMouse steps the pointer at
 * one speed whatever the distance: its time grows in proportion to the distance, the same speed on
 * every reach. The fit is a least-squares line of log(time) on log(path length); its slope is the
 * time exponent (1: one speed whatever the distance; Fitts' law with no intercept, the least
 * speed-up it allows, gives about 0.45 between a form's 100 px steps and its 600 px first reach),
 * and the slope's standard error carries the page's scatter and the number of its reaches.
 */

/**
 * The fit weighs only directed reaches: the chord (from rest to where the pointer stopped) this
 * share of the path length or more, as the stroke ratio before it did. Fitts' law is a law of
 * aimed movements; a hand circling before it presses (DELBOT's people drawing circles) need not
 * be faster over a longer path, and WindMouse's reaches are directed.
 */
export const DIRECTED_CHORD = 0.7;
/** …and only when the longest of them is this many times the shortest or more (AIMING.minLengthRatio). */
export const FIT_LENGTH_RATIO = 4.5;

/** A reach judged for aiming (aiming-metrics.ts): its path length (px) and mean speed (px/ms). */
export interface TimedReach {
  length: number;
  meanSpeed: number;
}

export interface ReachTimeFit {
  /** Least-squares slope of log(movement time) on log(path length) over the reaches. */
  exponent: number;
  /**
   * Its standard error: the residual scatter about the line over n − 2 degrees of freedom, over
   * the spread of log(length). Large when the reaches scatter about the line as a hand's do, or
   * when they are few; small when every reach was made at one speed.
   */
  se: number;
}

/**
 * The time exponent of the reaches and its standard error; null under three reaches (a line
 * through two points has no scatter to judge) or when the longest is under FIT_LENGTH_RATIO times
 * the shortest (distance cannot show).
 */
export function reachTimeFit(reaches: readonly TimedReach[]): ReachTimeFit | null {
  const n = reaches.length;
  if (n < 3) return null;
  let mx = 0;
  let my = 0;
  for (const r of reaches) {
    mx += Math.log(r.length);
    my += Math.log(r.length / r.meanSpeed);
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let sxy = 0;
  for (const r of reaches) {
    const dx = Math.log(r.length) - mx;
    sxx += dx * dx;
    sxy += dx * (Math.log(r.length / r.meanSpeed) - my);
  }
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (const r of reaches) {
    min = Math.min(min, r.length);
    max = Math.max(max, r.length);
  }
  if (sxx <= 1e-9 || max < FIT_LENGTH_RATIO * min) return null;
  const exponent = sxy / sxx;
  let ssr = 0;
  for (const r of reaches) {
    const residual = Math.log(r.length / r.meanSpeed) - my - exponent * (Math.log(r.length) - mx);
    ssr += residual * residual;
  }
  return { exponent, se: Math.sqrt(ssr / (n - 2) / sxx) };
}
