import type { ReachSpans } from './aimed-reaches.ts';
import type { MousePath } from './mouse-path.ts';

/**
 * Whether a page's aimed reaches were one cubic polynomial in time (docs/signals.md,
 * `mouse_reach_cubic`). A path library that samples a cubic Bezier curve at points evenly spaced
 * in its parameter and moves the pointer to each at one fixed interval (@extra/humanize: its
 * `getLUT(steps)` points, stepped by a script at one delay) makes x(t) and y(t) exact cubics in
 * time: fitted by a least-squares cubic, what is left is the rounding to whole pixels (about
 * 0.4 px RMS). A hand is no polynomial: a lognormal speed pulse, its corrections and tremor leave
 * pixels over any cubic (people aiming, KH2017: 2 px or more on all but the odd reach), and even
 * the smoothest reach a hand draws (a minimum-jerk bell, a quintic) leaves what a quintic removes
 * and a cubic cannot, which is why a reach counts only when a quintic explains little more.
 */

/** Samples (from the reach's first move to where it stopped) a reach needs to be fitted. */
export const CUBIC_MIN_SAMPLES = 8;
/**
 * Residual RMS (px, x and y together, over n − 4 degrees of freedom each) a reach's cubic fit must
 * stay within: twice the 0.41 px that rounding to whole pixels leaves.
 */
export const CUBIC_MAX_RMS_PX = 0.45;
/**
 * …and a quintic fit must remove no more than this F ratio of it (the variance the two extra
 * terms per axis explain, per term, over the quintic's residual variance): noise, not a shape a
 * cubic misses. A minimum-jerk reach of 50 px over 20 samples: F ≈ 14; a cubic: F ≈ 1.
 */
export const CUBIC_MAX_QUINTIC_F = 6;

/**
 * …and a straight line at one speed (a linear fit in time) must leave this many times
 * CUBIC_MAX_RMS_PX or more: the reach changed speed or direction as a Bezier does, not a pointer
 * run at one speed along a line (a remote desktop interpolating between reports, mouse keys).
 */
export const CUBIC_MIN_LINEAR_OVER = 3;

export const REACH_CUBIC_THRESHOLDS = {
  CUBIC_MIN_SAMPLES,
  CUBIC_MAX_RMS_PX,
  CUBIC_MAX_QUINTIC_F,
  CUBIC_MIN_LINEAR_OVER,
};

export interface ReachCubicMetrics {
  /** Reaches fitted (CUBIC_MIN_SAMPLES samples or more). */
  fitted: number;
  /**
   * …of which one cubic in time (`isCubic`), or one up to where they turned back
   * (`cubicBeforeTurnBack`: an overshoot and its correction).
   */
  cubic: number;
  /** Samples of the longest cubic reach or piece (0 without one). */
  cubic_samples: number;
  /** The lowest residual RMS of a fitted reach (px), null without one. */
  min_rms_px: number | null;
}

export const NO_REACH_CUBIC: ReachCubicMetrics = { fitted: 0, cubic: 0, cubic_samples: 0, min_rms_px: null };

/** Highest degree fitted: moments of u up to twice it. */
const MAX_DEGREE = 5;

/**
 * Residual sum of squares of the least-squares polynomial of `degree` (≤ MAX_DEGREE) through
 * samples summarised by their moments: `su[k]` = Σ u^k, `sv[k]` = Σ v·u^k, `vv` = Σ v² (v centred,
 * u in [−1, 1], where the normal equations of degree 5 are well conditioned). RSS = Σ v² − β·Xᵀv.
 * `a` is working space of (MAX_DEGREE + 1)(MAX_DEGREE + 2) numbers.
 */
function polynomialRss(
  su: Float64Array,
  sv: Float64Array,
  vv: number,
  degree: number,
  a: Float64Array,
): number {
  const m = degree + 1;
  const w = m + 1;
  for (let r = 0; r < m; r++) {
    for (let c = 0; c < m; c++) a[r * w + c] = su[r + c]!;
    a[r * w + m] = sv[r]!;
  }
  for (let c = 0; c < m; c++) {
    let pivot = c;
    for (let r = c + 1; r < m; r++) if (Math.abs(a[r * w + c]!) > Math.abs(a[pivot * w + c]!)) pivot = r;
    if (pivot !== c)
      for (let k = 0; k <= m; k++) {
        const t = a[c * w + k]!;
        a[c * w + k] = a[pivot * w + k]!;
        a[pivot * w + k] = t;
      }
    const d = a[c * w + c]!;
    if (Math.abs(d) < 1e-12) return Number.POSITIVE_INFINITY;
    for (let r = 0; r < m; r++) {
      if (r === c) continue;
      const f = a[r * w + c]! / d;
      if (f !== 0) for (let k = c; k <= m; k++) a[r * w + k]! -= f * a[c * w + k]!;
    }
  }
  // After the elimination row c reads a[c][c]·β_c = a[c][m]; β·Xᵀv with Xᵀv as it was (sv).
  let explained = 0;
  for (let c = 0; c < m; c++) explained += (a[c * w + m]! / a[c * w + c]!) * sv[c]!;
  return Math.max(0, vv - explained);
}

/**
 * The reach from `start` to `last` fitted as x(t), y(t) cubics and quintics in time: the cubic's
 * residual RMS (px) and the F ratio of what the quintic removes; null under CUBIC_MIN_SAMPLES
 * samples or without time.
 */
export function cubicFit(
  path: MousePath,
  start: number,
  last: number,
): { rms: number; f: number; linearRms: number } | null {
  const n = last - start + 1;
  const t0 = path.t[start]!;
  const span = path.t[last]! - t0;
  if (n < CUBIC_MIN_SAMPLES || span <= 0) return null;
  let mx = 0;
  let my = 0;
  for (let i = start; i <= last; i++) {
    mx += path.x[i]!;
    my += path.y[i]!;
  }
  mx /= n;
  my /= n;
  // One pass: the moments of u (time mapped onto [−1, 1]) and of the centred positions.
  const su = new Float64Array(2 * MAX_DEGREE + 1);
  const sx = new Float64Array(MAX_DEGREE + 1);
  const sy = new Float64Array(MAX_DEGREE + 1);
  let xx = 0;
  let yy = 0;
  for (let i = start; i <= last; i++) {
    const u = (2 * (path.t[i]! - t0)) / span - 1;
    const x = path.x[i]! - mx;
    const y = path.y[i]! - my;
    xx += x * x;
    yy += y * y;
    let p = 1;
    for (let k = 0; k <= 2 * MAX_DEGREE; k++) {
      su[k]! += p;
      if (k <= MAX_DEGREE) {
        sx[k]! += x * p;
        sy[k]! += y * p;
      }
      p *= u;
    }
  }
  const a = new Float64Array((MAX_DEGREE + 1) * (MAX_DEGREE + 2));
  const rss = (degree: number) => polynomialRss(su, sx, xx, degree, a) + polynomialRss(su, sy, yy, degree, a);
  const rss1 = rss(1);
  const rss3 = rss(3);
  const rss5 = rss(5);
  const rms = Math.sqrt(rss3 / (2 * (n - 4)));
  // Two more terms per axis (4 in all) against the quintic's residual over 2(n − 6) degrees of freedom.
  const f =
    rss5 > 1e-9
      ? Math.max(0, rss3 - rss5) / 4 / (rss5 / (2 * (n - 6)))
      : rss3 > 1e-9
        ? Number.POSITIVE_INFINITY
        : 0;
  return { rms, f, linearRms: Math.sqrt(rss1 / (2 * (n - 2))) };
}

/** A fit that is a cubic to the pixel's rounding, not a quintic's shape, and not a line at one speed. */
export function isCubic(fit: { rms: number; f: number; linearRms: number }): boolean {
  return (
    fit.rms <= CUBIC_MAX_RMS_PX &&
    fit.f <= CUBIC_MAX_QUINTIC_F &&
    fit.linearRms >= CUBIC_MIN_LINEAR_OVER * CUBIC_MAX_RMS_PX
  );
}

/** Least way (px) over the two moves on either side of a sample for its turn to be weighed. */
const TURN_MIN_PX = 3;

/**
 * The reach from `start` to `last` turned back (by more than 90°) after a cubic piece: the sample
 * where the piece ends, or −1. @extra/humanize past 500 px draws a Bezier to a point within 120 px
 * of the target and from there a corrective one back: the first piece alone is a cubic in time.
 * The turn is read at the reach's sharpest (the way over the two moves into a sample against the
 * two out of it, both TURN_MIN_PX or more: a pixel's rounding turns freely), CUBIC_MIN_SAMPLES or
 * more into the reach.
 */
export function cubicBeforeTurnBack(path: MousePath, start: number, last: number): number {
  const { x, y } = path;
  let at = -1;
  let sharpest = 0;
  for (let i = start + CUBIC_MIN_SAMPLES - 1; i <= last - 2; i++) {
    const ax = x[i]! - x[i - 2]!;
    const ay = y[i]! - y[i - 2]!;
    const bx = x[i + 2]! - x[i]!;
    const by = y[i + 2]! - y[i]!;
    const la = Math.hypot(ax, ay);
    const lb = Math.hypot(bx, by);
    if (la < TURN_MIN_PX || lb < TURN_MIN_PX) continue;
    // Minus the cosine: over 0 where the way out turns more than 90° from the way in.
    const turn = -(ax * bx + ay * by) / (la * lb);
    if (turn > sharpest) {
      sharpest = turn;
      at = i;
    }
  }
  if (at < 0) return -1;
  const piece = cubicFit(path, start, at);
  return piece !== null && isCubic(piece) ? at : -1;
}

/** The page's aimed reaches (`aimedReachSpans` over `path`, one per press) fitted as cubics in time. */
export function reachCubicMetrics(path: MousePath, spans: ReachSpans): ReachCubicMetrics {
  let fitted = 0;
  let cubic = 0;
  let cubicSamples = 0;
  let minRms = Number.POSITIVE_INFINITY;
  for (const [start, last] of spans) {
    const fit = cubicFit(path, start, last);
    if (fit === null) continue;
    fitted++;
    minRms = Math.min(minRms, fit.rms);
    const end = isCubic(fit) ? last : cubicBeforeTurnBack(path, start, last);
    if (end >= 0) {
      cubic++;
      cubicSamples = Math.max(cubicSamples, end - start + 1);
    }
  }
  return fitted === 0 ? NO_REACH_CUBIC : { fitted, cubic, cubic_samples: cubicSamples, min_rms_px: minRms };
}
