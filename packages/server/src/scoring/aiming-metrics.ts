import { hypot } from './hypot.ts';
import { AIMED_PRESS_MS, AIMED_PRESS_PX } from './mouse-aimed.ts';
import { type MousePath, STROKE_PAUSE_MS } from './mouse-path.ts';

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
   * Reaches that set off and arrived at speed: their first and their last speed both REST_START of
   * their peak or more (no acceleration from rest, no braking into the target).
   */
  abrupt: number;
  /**
   * Reaches that arrived at speed: their speed over the last two sample intervals ARRIVED_AT of
   * their fastest over three or more, however they set off.
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
  /** Median interval between the judged reaches' samples (ms); the sampling the metrics rest on. */
  median_interval_ms: number | null;
}

/** A reach's chord (from where the pointer rested to where it stopped) must be this long, px. */
export const REACH_MIN_PX = 50;
/** …and have this many speeds (sample intervals) after it set off. */
export const REACH_MIN_SPEEDS = 4;
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

export const AIMING_METRIC_THRESHOLDS = {
  REACH_MIN_PX,
  REACH_MIN_SPEEDS,
  REST_START,
  PEAK_OVER_MEAN,
  ARRIVED_AT,
};

interface Reach {
  length: number;
  meanSpeed: number;
}

/** No reach judged (no behaviour evidence, or no press after a movement). */
export const NO_AIMING: AimingMetrics = {
  reaches: 0,
  handlike: 0,
  abrupt: 0,
  arrived: 0,
  length_ratio: null,
  speed_slope: null,
  median_interval_ms: null,
};

/**
 * One reach per press ([t, x, y, …], time order): the movement since the last pause over
 * STROKE_PAUSE_MS before the press, when the press came within AIMED_PRESS_MS and AIMED_PRESS_PX
 * of where it stopped. It is judged only when it is the whole way since the previous press: the
 * pointer rested, before it set off, within AIMED_PRESS_PX of where it was then (of where the page
 * first saw it, for the first press). A movement that began elsewhere after an earlier one (a
 * person reading, a touchpad user lifting the finger midway) is part of a reach whose start is
 * unknown.
 */
export function aimingMetrics(path: MousePath, presses: readonly (readonly number[])[]): AimingMetrics {
  const { n, t, x, y, len } = path;
  const reaches: Reach[] = [];
  const intervals: number[] = [];
  let handlike = 0;
  let abrupt = 0;
  let arrived = 0;
  let from = 0;
  let after = Number.NEGATIVE_INFINITY;
  for (const press of presses) {
    const [pt, px, py] = press as [number, number, number];
    while (from < n && t[from]! <= after) from++;
    after = pt;
    let end = from;
    while (end < n && t[end]! <= pt) end++;
    const last = end - 1;
    if (last - from < REACH_MIN_SPEEDS) continue;
    if (pt - t[last]! > AIMED_PRESS_MS || hypot(px - x[last]!, py - y[last]!) > AIMED_PRESS_PX) continue;
    let start = from;
    for (let i = last; i > from; i--) {
      if (t[i]! - t[i - 1]! > STROKE_PAUSE_MS) {
        start = i;
        break;
      }
    }
    const rest = start > 0 ? start - 1 : start;
    const anchor = from > 0 ? from - 1 : 0;
    if (hypot(x[rest]! - x[anchor]!, y[rest]! - y[anchor]!) > AIMED_PRESS_PX) continue;
    if (last - start < REACH_MIN_SPEEDS || hypot(x[last]! - x[rest]!, y[last]! - y[rest]!) < REACH_MIN_PX)
      continue;
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
    if (first >= REST_START * peak && arrival >= REST_START * peak) abrupt++;
    if (ranInto(path, start, last)) arrived++;
    reaches.push({ length, meanSpeed });
  }
  if (reaches.length === 0) return NO_AIMING;
  intervals.sort((a, b) => a - b);
  return {
    reaches: reaches.length,
    handlike,
    abrupt,
    arrived,
    length_ratio: reaches.length >= 2 ? lengthRatio(reaches) : null,
    speed_slope: speedSlope(reaches),
    median_interval_ms: intervals[intervals.length >> 1]!,
  };
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
