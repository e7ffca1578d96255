import { REACH_MIN_PX, REACH_MIN_SPEEDS, type ReachSpans } from './aimed-reaches.ts';
import { DIRECTED_CHORD, type ReachTimeFit, reachTimeFit } from './aiming-time.ts';
import { hypot } from './hypot.ts';
import type { MousePath } from './mouse-path.ts';
import { primaryEnd, REACH_PRIMARY_THRESHOLDS } from './reach-primary.ts';
import { REACH_STALL_THRESHOLDS, timeWithoutPauses, withoutStalls } from './reach-stalls.ts';

/**
 * How the page's pointer reached what it pressed: one reach per press, the movement that ended
 * where the press came (docs/signals.md, `mouse_reaches_one_pace`). A hand's aimed reach starts
 * from rest, speeds up to a peak and slows down (a sum of lognormal speed pulses, Plamondon's
 * kinematic theory), and a longer reach is made faster (Fitts' law: time grows with the log of the
 * distance). Path libraries draw every reach of a page from one model: ghost-cursor steps along a
 * Bezier at one speed per reach, WindMouse at one speed whatever the distance.
 */
export interface AimingMetrics {
  /** Reaches judged: a press within AIMED_PRESS_MS and AIMED_PRESS_PX of where a movement stopped. */
  reaches: number;
  /**
   * Reaches shaped as a hand's: they set off from rest (the first speed under REST_START of the
   * reach's peak) and peak (peak speed PEAK_OVER_MEAN times the mean or more).
   */
  handlike: number;
  /**
   * Reaches bell-shaped as a hand's aimed reach (stricter than `handlike`): they set off from rest
   * (first speed under BELL_START of the peak), brake into the target (last speed under BELL_END of
   * the peak), peak inside the movement (the peak interval's middle between BELL_PEAK_WITHIN of
   * its duration) and peak above the mean (BELL_PEAK_OVER_MEAN times it or more).
   */
  bells: number;
  /**
   * Reaches that peak above their mean and brake into the target (the last two conditions of
   * `bells`): what of a hand's shape survives positions coming in jumps (a remote desktop, a VM),
   * where the first sample already covers the acceleration and may hold the peak.
   */
  braked_peaks: number;
  /**
   * Reaches that set off and arrived at speed: their first and their last speed both REST_START of
   * their peak or more (no acceleration from rest, no braking into the target).
   */
  abrupt: number;
  /**
   * Reaches that arrived at speed: their speed over the last two sample intervals ARRIVED_AT of
   * their fastest over three or more, however they set off — into their target, or into where
   * they turned back (`primaryEnd`, reach-primary.ts: an overshoot before its correction).
   */
  arrived: number;
  /** Path length of the longest judged reach over the shortest; null under two reaches. */
  length_ratio: number | null;
  /**
   * Least-squares slope of log(mean speed) on log(path length) over the judged reaches: how much
   * faster a longer reach is made (1: every reach takes the same time; 0: one speed whatever the
   * length). Null under two reaches or when they are all of one length.
   */
  speed_slope: number | null;
  /**
   * Movement time against distance over the judged reaches (aiming-time.ts): the time exponent
   * (slope of log time on log path length) and its standard error. Null under three reaches.
   */
  time_fit: ReachTimeFit | null;
  /** Median interval between the judged reaches' samples (ms); the sampling the metrics rest on. */
  median_interval_ms: number | null;
}

/** A reach sets off from rest when its first speed is under this share of its peak. */
export const REST_START = 0.3;
/**
 * A reach peaks when its peak speed (over one sample interval) is this many times its mean speed
 * (a hand's bell-shaped profile: about 1.9; a hand's final approach raises it further).
 */
export const PEAK_OVER_MEAN = 2;
/**
 * A reach arrives at speed when its speed over its last two sample intervals is this share of its
 * fastest over three or more: it ran into the target at nearly full speed (a hand brakes into it).
 */
export const ARRIVED_AT = 0.7;

/**
 * A reach's shape is read from its speed over windows of this many ms (the path length covered,
 * positions interpolated between samples): a real browser delivers moves with jitter (two steps
 * in one frame, then none; a late frame on a loaded machine) that makes single intervals' speeds
 * swing by a factor of two.
 */
export const BELL_WINDOW_MS = 48;
/** …its first window's speed is under this share of its fastest window's (a hand sets off from rest). */
export const BELL_START = 0.5;
/** …its last window's under this share (a hand brakes into its target). */
export const BELL_END = 0.35;
/**
 * …its fastest window's middle lies within this share of its duration (a hand reaches its top
 * speed inside the movement, not as it sets off or arrives).
 */
export const BELL_PEAK_WITHIN = [0.08, 0.9] as const;
/** …and its fastest window's speed is this many times its mean speed or more. */
export const BELL_PEAK_OVER_MEAN = 1.6;
/**
 * Read sample by sample, a reach's peak is its fastest speed held over about this long (ms): over
 * round(BELL_HELD_MS / the reach's median interval) consecutive intervals, at least one
 * (`heldPeak`). One fast interval between slow ones is as often the input's timing as a hand's
 * peak; a hand's peak lasts several 60 Hz frames.
 */
export const BELL_HELD_MS = 48;

export const AIMING_METRIC_THRESHOLDS = {
  REACH_MIN_PX,
  REACH_MIN_SPEEDS,
  REST_START,
  PEAK_OVER_MEAN,
  ARRIVED_AT,
  BELL_WINDOW_MS,
  BELL_START,
  BELL_END,
  BELL_PEAK_WITHIN,
  BELL_PEAK_OVER_MEAN,
  BELL_HELD_MS,
  // How stalls are read (reach-stalls.ts): which pauses cut a reach, what is re-timed.
  ...REACH_STALL_THRESHOLDS,
  ...REACH_PRIMARY_THRESHOLDS,
};

/** The reaches the time fit weighs (aiming-time.ts DIRECTED_CHORD): aimed along a line, not circling. */
const directed = (r: Reach) => r.chord >= DIRECTED_CHORD * r.length;

interface Reach {
  length: number;
  meanSpeed: number;
  /** Straight-line distance from where the pointer rested to where it stopped (px). */
  chord: number;
}

/** No reach judged (no behaviour evidence, or no press after a movement). */
export const NO_AIMING: AimingMetrics = {
  reaches: 0,
  handlike: 0,
  bells: 0,
  braked_peaks: 0,
  abrupt: 0,
  arrived: 0,
  length_ratio: null,
  speed_slope: null,
  time_fit: null,
  median_interval_ms: null,
};

/** The page's aimed reaches (`aimedReachSpans` over `sampled`, one per press) measured and counted. */
export function aimingMetrics(sampled: MousePath, spans: ReachSpans): AimingMetrics {
  const reaches: Reach[] = [];
  const intervals: number[] = [];
  let handlike = 0;
  let bells = 0;
  let brakedPeaks = 0;
  let abrupt = 0;
  let arrived = 0;
  for (const [start, last] of spans) {
    // Measured on the reach's own pace: a starved input program's stalls taken out (reach-stalls.ts).
    const path = withoutStalls(sampled, start, last);
    const { t, x, y, len } = path;
    const rest = start > 0 ? start - 1 : start;
    let length = 0;
    let peak = 0;
    for (let i = start + 1; i <= last; i++) {
      length += len[i]!;
      intervals.push(t[i]! - t[i - 1]!);
      peak = Math.max(peak, len[i]! / Math.max(1, t[i]! - t[i - 1]!));
    }
    const first = len[start + 1]! / Math.max(1, t[start + 1]! - t[start]!);
    const duration = t[last]! - t[start]!;
    if (length <= 0 || duration <= 0) continue;
    const meanSpeed = length / duration;
    const arrival = len[last]! / Math.max(1, t[last]! - t[last - 1]!);
    if (first < REST_START * peak && peak >= PEAK_OVER_MEAN * meanSpeed) handlike++;
    // Read sample by sample and over windows: either reading finding a hand's shape clears the
    // reach (a short reach has too few windows; a real browser's jitter swings single intervals).
    const shape = bellShape(path, start, last);
    const held = heldPeak(path, start, last, medianOf(t, start, last));
    const sampledBrakedPeak =
      arrival < BELL_END * held.speed && held.speed >= BELL_PEAK_OVER_MEAN * meanSpeed;
    const sampledBell =
      sampledBrakedPeak &&
      first < BELL_START * held.speed &&
      held.at >= BELL_PEAK_WITHIN[0] * duration &&
      held.at <= BELL_PEAK_WITHIN[1] * duration;
    if (shape.brakedPeak || sampledBrakedPeak) brakedPeaks++;
    if (shape.bell || sampledBell) bells++;
    if (first >= REST_START * peak && arrival >= REST_START * peak) abrupt++;
    // …into its target, or into where it turned back (an overshoot's correction: reach-primary.ts).
    const turned = primaryEnd(path, start, last);
    if (ranInto(path, start, last) || (turned < last && ranInto(path, start, turned))) arrived++;
    // Speed against length and the time fit keep the recorded time (a path library's own sleeps
    // are its design) but for pauses over STROKE_PAUSE_MS read as stalls (timeWithoutPauses).
    const recorded = timeWithoutPauses(sampled, start, last);
    reaches.push({
      length,
      meanSpeed: length / recorded,
      chord: hypot(x[last]! - x[rest]!, y[last]! - y[rest]!),
    });
  }
  if (reaches.length === 0) return NO_AIMING;
  intervals.sort((a, b) => a - b);
  return {
    reaches: reaches.length,
    handlike,
    bells,
    braked_peaks: brakedPeaks,
    abrupt,
    arrived,
    length_ratio: reaches.length >= 2 ? lengthRatio(reaches) : null,
    speed_slope: speedSlope(reaches),
    time_fit: reachTimeFit(reaches.filter(directed)),
    median_interval_ms: intervals[intervals.length >> 1]!,
  };
}

/** Path length covered from the reach's first sample (the cursor's start) up to time `at` (interpolated within an interval). */
function coveredAt(path: MousePath, last: number, at: number, cursor: { i: number; s: number }) {
  const { t, len } = path;
  while (cursor.i < last && t[cursor.i + 1]! <= at) {
    cursor.i++;
    cursor.s += len[cursor.i]!;
  }
  if (cursor.i >= last) return cursor.s;
  const dt = t[cursor.i + 1]! - t[cursor.i]!;
  return cursor.s + (dt > 0 ? (len[cursor.i + 1]! * (at - t[cursor.i]!)) / dt : 0);
}

/**
 * The reach from `start` to `last` read over BELL_WINDOW_MS windows (the last window ends on its
 * last sample; a reach shorter than three windows is cut into three): `brakedPeak` when its
 * fastest window is BELL_PEAK_OVER_MEAN of the mean or more and its last under BELL_END of the
 * fastest; `bell` when, besides, its first is under BELL_START and its fastest lies within
 * BELL_PEAK_WITHIN of the duration.
 */
function bellShape(path: MousePath, start: number, last: number): { bell: boolean; brakedPeak: boolean } {
  const t0 = path.t[start]!;
  const duration = path.t[last]! - t0;
  const windows = Math.max(3, Math.floor(duration / BELL_WINDOW_MS));
  const width = duration / windows;
  const cursor = { i: start, s: 0 };
  let before = 0;
  let first = 0;
  let lastSpeed = 0;
  let peak = 0;
  let peakAt = 0;
  for (let k = 1; k <= windows; k++) {
    const covered = coveredAt(path, last, t0 + k * width, cursor);
    const speed = (covered - before) / width;
    before = covered;
    if (k === 1) first = speed;
    lastSpeed = speed;
    if (speed > peak) {
      peak = speed;
      peakAt = (k - 0.5) * width;
    }
  }
  const mean = before / duration;
  const brakedPeak = peak > 0 && peak >= BELL_PEAK_OVER_MEAN * mean && lastSpeed < BELL_END * peak;
  const bell =
    brakedPeak &&
    first < BELL_START * peak &&
    peakAt >= BELL_PEAK_WITHIN[0] * duration &&
    peakAt <= BELL_PEAK_WITHIN[1] * duration;
  return { bell, brakedPeak };
}

/**
 * The reach's fastest speed held over BELL_HELD_MS (k = round(BELL_HELD_MS / its median interval)
 * consecutive sample intervals, one at least), and when (the middle of those intervals, from the
 * reach's start). A single fast interval is as often a busy machine's timing as a hand's peak:
 * WindMouse's even steps recorded in real chromium at load 10 come 4–45 ms apart, and read
 * interval by interval 1–2 of a page's 3 reaches peaked like a hand's (docs/signals.md, "Aiming
 * on a busy machine"). At 30 Hz or slower k is 1: the reading is the single-interval one.
 */
function heldPeak(
  path: MousePath,
  start: number,
  last: number,
  medianInterval: number,
): { speed: number; at: number } {
  const k = Math.max(1, Math.min(Math.round(BELL_HELD_MS / Math.max(1, medianInterval)), last - start));
  let speed = 0;
  let at = 0;
  for (let i = start + k; i <= last; i++) {
    const v = speedOver(path, i, k);
    if (v > speed) {
      speed = v;
      at = (path.t[i]! + path.t[i - k]!) / 2 - path.t[start]!;
    }
  }
  return { speed, at };
}

/** Speed over the `k` sample intervals that end at sample `i`. */
function speedOver(path: MousePath, i: number, k: number): number {
  let d = 0;
  for (let j = i - k + 1; j <= i; j++) d += path.len[j]!;
  return d / Math.max(1, path.t[i]! - path.t[i - k]!);
}

/**
 * The reach from `start` to `last` ran into its target: its speed over the last two intervals is
 * ARRIVED_AT of its fastest over three or more. Speeds over several intervals, because a real
 * browser delivers moves with jitter (two steps in one frame, then none) that doubles a single
 * interval's speed.
 */
function ranInto(path: MousePath, start: number, last: number): boolean {
  let peak = 0;
  for (let i = start + 3; i <= last; i++) peak = Math.max(peak, speedOver(path, i, 3));
  return speedOver(path, last, 2) >= ARRIVED_AT * peak;
}

/** Median sample interval of the reach from `start` to `last`. */
function medianOf(t: Float64Array, start: number, last: number): number {
  const d: number[] = [];
  for (let i = start + 1; i <= last; i++) d.push(t[i]! - t[i - 1]!);
  d.sort((a, b) => a - b);
  return d[d.length >> 1] ?? 0;
}

function lengthRatio(reaches: readonly Reach[]): number {
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (const r of reaches) {
    min = Math.min(min, r.length);
    max = Math.max(max, r.length);
  }
  return max / min;
}

/** Least-squares slope of log(mean speed) on log(length); null when the lengths do not vary. */
function speedSlope(reaches: readonly Reach[]): number | null {
  if (reaches.length < 2) return null;
  let mx = 0;
  let my = 0;
  for (const r of reaches) {
    mx += Math.log(r.length);
    my += Math.log(r.meanSpeed);
  }
  mx /= reaches.length;
  my /= reaches.length;
  let sxy = 0;
  let sxx = 0;
  for (const r of reaches) {
    const dx = Math.log(r.length) - mx;
    sxy += dx * (Math.log(r.meanSpeed) - my);
    sxx += dx * dx;
  }
  return sxx > 1e-9 ? sxy / sxx : null;
}
