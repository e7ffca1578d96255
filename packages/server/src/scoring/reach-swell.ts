import { REACH_MIN_PX, type ReachSpans } from './aimed-reaches.ts';
import { hypot } from './hypot.ts';
import type { MousePath } from './mouse-path.ts';

/**
 * How well each aimed reach's primary submovement is drawn by one sinusoidal swell off its chord,
 * how long the reach's final approach took and where its primary ended (docs/signals.md,
 * `mouse_reaches_swelled`, signals/reach-swell.ts, which scores the three together).
 * NaturalMouseMotion (JoonasVali, Java) bends every movement by a deviation `(1 − cos 2πc) / 2` times one random vector, c the share of the chord
 * completed: the path leaves its start along the chord, bulges to one side once, peaks half-way and
 * returns onto the chord at the (false) target, whatever its speed flow, its time or its distance.
 * Its noise is added only where steps are short (under 8 px) and fades with the deviation, so what
 * is left off that one curve is a pixel or two. A hand's reach sets off at an angle, curves
 * unevenly and corrects on the way: its path leaves such a curve by several percent of the
 * distance. Timing plays no part (a replayed or loaded browser's timing changes nothing here).
 */
export interface ReachSwellMetrics {
  /** Primary submovements measured (chord SWELL_MIN_PX or more, SWELL_MIN_SAMPLES samples or more). */
  reaches: number;
  /**
   * The largest, over the measured primaries, of the path's RMS distance from its best-fitting
   * swell, over the chord (null without a measured primary): how far the least machine-like
   * primary strays from one swell.
   */
  max_residual: number | null;
  /** The largest fitted swell height over the chord (null without a measured primary). */
  max_swell: number | null;
  /** The middle (the upper of two) of the primaries' residuals over their chords (null without one). */
  median_residual: number | null;
  /**
   * Of the reaches with a measured primary, the middle (the upper of two) of: the reach's time after
   * it first came within SWELL_APPROACH_SHARE of its chord of where it stopped, over the time it
   * took to get there (null without a measured primary). NaturalMouseMotion's corrections take the
   * primary's time divided by 1.8 again and again, with 20–140 ms rests, whatever is left to cover.
   */
  approach_ratio: number | null;
  /**
   * The largest distance, over the chord, to the side of the reach's chord between where a primary
   * ended and where the reach stopped (null without a measured primary): NaturalMouseMotion's false
   * targets lie in a square around the target; a hand's primary falls short or long along its way.
   */
  max_primary_offset: number | null;
}

/** A primary's chord must be this long (px). */
export const SWELL_MIN_PX = REACH_MIN_PX;
/** …and have this many samples. */
export const SWELL_MIN_SAMPLES = 8;
/**
 * A reach's primary submovement ends at the first gap of this many ms between samples once it has
 * covered SWELL_PRIMARY_SHARE of the reach's chord: NaturalMouseMotion rests 20–140 ms on a false
 * target before its correction.
 */
export const SWELL_GAP_MS = 40;
export const SWELL_PRIMARY_SHARE = 0.6;
/**
 * The swell's vector may lie along the chord as well as across it, which stretches the bump forward
 * or back: the fit allows along-chord shares up to this (NaturalMouseMotion: up to a tenth of the
 * distance on each axis).
 */
export const SWELL_MAX_ALONG = 0.15;
/** Gaps (SWELL_GAP_MS) tried as the primary's end, the first ones once SWELL_PRIMARY_SHARE is covered. */
export const SWELL_GAPS_TRIED = 3;

/**
 * A page's primaries follow one swell when there are SWELL_MIN_REACHES or more and the worst lies
 * within this share of its chord of its swell: NaturalMouseMotion-style pages (our generator, whose
 * noise is stronger than the library's) 97 of 100 offline and 6 of 6 recorded in chromium; people
 * (KH2017, odd subjects, 15 device transforms, time kept or by Fitts' law) 98 of 5,400 pages.
 */
export const SWELL_MAX_RESIDUAL = 0.01;
export const SWELL_MIN_REACHES = 3;
/** The final approach (`approach_ratio`) begins where the reach first comes this share of its chord from where it stopped. */
export const SWELL_APPROACH_SHARE = 0.1;

export const REACH_SWELL_THRESHOLDS = {
  SWELL_MIN_PX,
  SWELL_MIN_SAMPLES,
  SWELL_GAP_MS,
  SWELL_PRIMARY_SHARE,
  SWELL_MAX_ALONG,
  SWELL_GAPS_TRIED,
  SWELL_MAX_RESIDUAL,
  SWELL_MIN_REACHES,
  SWELL_APPROACH_SHARE,
};

/** The page's primaries follow one swell (see SWELL_MAX_RESIDUAL). */
export function swelledPage(m: ReachSwellMetrics): boolean {
  return m.reaches >= SWELL_MIN_REACHES && m.max_residual !== null && m.max_residual <= SWELL_MAX_RESIDUAL;
}

export const NO_REACH_SWELL: ReachSwellMetrics = {
  reaches: 0,
  max_residual: null,
  max_swell: null,
  median_residual: null,
  approach_ratio: null,
  max_primary_offset: null,
};

/** The middle value (the upper of two) of a non-empty list, which it sorts. */
const middle = (v: number[]) => v.sort((a, b) => a - b)[v.length >> 1]!;

/**
 * The swells of the primaries of the page's aimed reaches (`aimedReachSpans` over `path`, one per
 * press), the reaches' final approaches and where their primaries ended.
 */
export function reachSwellMetrics(path: MousePath, spans: ReachSpans): ReachSwellMetrics {
  const { t, x, y } = path;
  const residuals: number[] = [];
  const approaches: number[] = [];
  let maxSwell = 0;
  let offset = 0;
  for (const [start, last] of spans) {
    const rest = start > 0 ? start - 1 : start;
    const fit = primaryFit(path, rest, last);
    if (fit === null) continue;
    residuals.push(fit.residual);
    maxSwell = Math.max(maxSwell, fit.height);
    const cx = x[last]! - x[rest]!;
    const cy = y[last]! - y[rest]!;
    const chord = hypot(cx, cy);
    const across = (x[fit.end]! - x[last]!) * cy - (y[fit.end]! - y[last]!) * cx;
    offset = Math.max(offset, Math.abs(across) / (chord * chord));
    let k = start;
    while (k < last && hypot(x[k]! - x[last]!, y[k]! - y[last]!) > SWELL_APPROACH_SHARE * chord) k++;
    approaches.push((t[last]! - t[k]!) / Math.max(1, t[k]! - t[start]!));
  }
  if (residuals.length === 0) return NO_REACH_SWELL;
  return {
    reaches: residuals.length,
    max_residual: Math.max(...residuals),
    max_swell: maxSwell,
    median_residual: middle(residuals),
    approach_ratio: middle(approaches),
    max_primary_offset: offset,
  };
}

/**
 * The best swell fit of the reach's primary submovement: the reach from where it rested up to a
 * sample followed by a gap of SWELL_GAP_MS or more once SWELL_PRIMARY_SHARE of the reach's chord
 * is covered, or up to its end; of these, the one the swell fits best (a loaded browser's late
 * frame is a gap too, in the middle of a movement, and a swell fits there worse than at the rest
 * on the false target). Null when none is measurable; `end` is the sample the primary ended on.
 */
export function primaryFit(
  path: MousePath,
  rest: number,
  last: number,
): { residual: number; height: number; end: number } | null {
  const { t, x, y } = path;
  const chord = hypot(x[last]! - x[rest]!, y[last]! - y[rest]!);
  let best = swellFit(path, rest, last);
  let end = last;
  let tried = 0;
  for (let i = rest + 1; i < last && tried < SWELL_GAPS_TRIED; i++) {
    if (t[i + 1]! - t[i]! < SWELL_GAP_MS) continue;
    if (hypot(x[i]! - x[rest]!, y[i]! - y[rest]!) < SWELL_PRIMARY_SHARE * chord) continue;
    tried++;
    const fit = swellFit(path, rest, i);
    if (fit !== null && (best === null || fit.residual < best.residual)) {
      best = fit;
      end = i;
    }
  }
  return best === null ? null : { residual: best.residual, height: best.height, end };
}

/**
 * The best swell through the samples `from`…`to`. With its vector's along-chord share s, a sample
 * at completion c lies at u = c + s·swell(c) along the chord and h = a·swell(c) across it; to first
 * order in s, h = a·swell(u) − a·s·swell(u)·swell′(u), a least-squares fit on two curves in one
 * pass, s kept within ±SWELL_MAX_ALONG. Returns the RMS residual over the chord and the height
 * |a|; null under SWELL_MIN_SAMPLES samples or SWELL_MIN_PX of chord.
 */
export function swellFit(
  path: MousePath,
  from: number,
  to: number,
): { residual: number; height: number } | null {
  const { x, y } = path;
  const n = to - from + 1;
  if (n < SWELL_MIN_SAMPLES) return null;
  const dx = x[to]! - x[from]!;
  const dy = y[to]! - y[from]!;
  const d = hypot(dx, dy);
  if (d < SWELL_MIN_PX) return null;
  const ux = dx / d;
  const uy = dy / d;
  // Sums of products of the offset h, the swell S and the along-chord term T = −S·S′.
  let hh = 0;
  let hs = 0;
  let ht = 0;
  let ss = 0;
  let st = 0;
  let tt = 0;
  for (let i = from; i <= to; i++) {
    const ex = x[i]! - x[from]!;
    const ey = y[i]! - y[from]!;
    const u = (ex * ux + ey * uy) / d;
    const h = (ey * ux - ex * uy) / d;
    hh += h * h;
    if (u <= 0 || u >= 1) continue;
    const angle = 2 * Math.PI * u;
    const sw = (1 - Math.cos(angle)) / 2;
    const tw = -sw * Math.PI * Math.sin(angle);
    hs += h * sw;
    ht += h * tw;
    ss += sw * sw;
    st += sw * tw;
    tt += tw * tw;
  }
  const det = ss * tt - st * st;
  if (det > 1e-12 * ss * tt) {
    const a = (hs * tt - ht * st) / det;
    const b = (ht * ss - hs * st) / det;
    if (Math.abs(b) <= SWELL_MAX_ALONG * Math.abs(a))
      return { residual: Math.sqrt(Math.max(0, hh - a * hs - b * ht) / n), height: Math.abs(a) };
  }
  // The along share at its bound (or the curves too alike to tell apart): one curve S + k·T.
  let best = { residual: Number.POSITIVE_INFINITY, height: 0 };
  for (const k of [-SWELL_MAX_ALONG, 0, SWELL_MAX_ALONG]) {
    const num = hs + k * ht;
    const den = ss + 2 * k * st + k * k * tt;
    const a = den > 0 ? num / den : 0;
    const residual = Math.sqrt(Math.max(0, hh - a * num) / n);
    if (residual < best.residual) best = { residual, height: Math.abs(a) };
  }
  return best;
}
