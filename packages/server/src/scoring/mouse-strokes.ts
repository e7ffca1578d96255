/**
 * Per-stroke shape of a mouse path (mouse-path.ts): strokes are runs of moves without a pause over
 * STROKE_PAUSE_MS, each judged for straightness, flat speed and smoothness of its turns; directed
 * strokes ended by a press are aimed (mouse-aimed.ts).
 */

import { hypot } from './hypot.ts';
import { cruiseSpeed, type PressCursor, pressFollows } from './mouse-aimed.ts';
import { cvOf, type MousePath, STROKE_PAUSE_MS } from './mouse-path.ts';

/**
 * The n smallest-first values of `values` (sorted in place), with NaN ordered as a comparison
 * sort by `a - b` orders it: typed arrays sort NaN last, so any NaN takes the comparison path.
 */
function sortNumbers(values: Float64Array, n: number): ArrayLike<number> {
  const head = values.subarray(0, n);
  for (let i = 0; i < n; i++) if (Number.isNaN(head[i]!)) return Array.from(head).sort((a, b) => a - b);
  return head.sort();
}

/**
 * A hand speeds up and slows down within a stroke (a bell-shaped speed profile); a script moving
 * the pointer by equal steps at equal intervals keeps one speed. Strokes whose speed varies less
 * than this (coefficient of variation of the per-sample speeds) are flat.
 */
export const FLAT_SPEED_CV = 0.12;

/**
 * A hand's path wobbles: tremor, sub-movements and corrections, and the pointer's pixel grid, make
 * the turning angle change by more than 0.07 rad (median, per stroke) from one move to the next
 * in every DELBOT human stroke (60 Hz). A cubic Bezier or spline sampled by a script bends
 * smoothly: under 0.03 rad for most such strokes. Strokes whose median change is under this are
 * too smooth.
 */
export const SMOOTH_TURN_CHANGE = 0.03;

/** Turn changes a stroke needs before its smoothness is judged. */
export const SMOOTH_MIN_TURNS = 5;

/**
 * Turn changes that make one smooth stroke conclusive on its own (the median of that many changes
 * is stable: no DELBOT human stroke this long has a median under 0.045 rad).
 */
export const SMOOTH_LONG_TURNS = 24;

/**
 * Strokes whose chord is at least this share of their path go from one place to another (an aimed
 * movement: to a field, a button); drawing, circling and wandering strokes do not.
 */
export const DIRECTED_STROKE = 0.7;

/**
 * A ruler-straight stroke keeps every sample within this many px of its chord (and its chord is
 * over 0.995 of its path). Lines drawn by a script stay within the pixel rounding (≤ 0.7 px);
 * a hand's aimed reach bows: chord/path 0.995 still allows a 48 px bow over 1,100 px, which
 * people aiming at buttons draw (KH2017, docs/signals.md).
 */
export const STRAIGHT_DEVIATION_PX = 2;

export interface StrokeStats {
  strokes: number;
  straight: number;
  max: number;
  flat: number;
  smooth: number;
  longSmooth: number;
  curvature: number;
  /** Judged strokes that are directed (chord ≥ DIRECTED_STROKE of the path). */
  directed: number;
  /** Directed strokes that are aimed (a press follows where they stopped: AIMED_PRESS_MS, AIMED_PRESS_PX). */
  aimed: number;
  /** Path length (px) and cruise speed (px/ms, cruiseSpeed) of the shortest and the longest aimed stroke. */
  shortLength: number;
  shortCruise: number;
  longLength: number;
  longCruise: number;
}

/**
 * Strokes: runs of moves without a pause over 200 ms. The path's `scratch` (one slot per sample)
 * holds a stroke's speeds, then its turn changes. `presses`: the pointer presses ([t, x, y, …],
 * in time order, the clock of the moves), which tell aimed strokes from the rest.
 */
export function strokeStats(path: MousePath, presses: readonly (readonly number[])[] = []): StrokeStats {
  const { n, t, scratch } = path;
  const out: StrokeStats = {
    strokes: 0,
    straight: 0,
    max: 0,
    flat: 0,
    smooth: 0,
    longSmooth: 0,
    curvature: 0,
    directed: 0,
    aimed: 0,
    shortLength: 0,
    shortCruise: 0,
    longLength: 0,
    longCruise: 0,
  };
  const cursor: PressCursor = { presses, next: 0 };
  let start = 0;
  for (let i = 1; i <= n; i++) {
    if (i < n && t[i]! - t[i - 1]! <= STROKE_PAUSE_MS) continue;
    if (i - start >= 8) judgeStroke(path, start, i, scratch, out, cursor);
    start = i;
  }
  return out;
}

function judgeStroke(
  path: MousePath,
  start: number,
  end: number,
  scratch: Float64Array,
  out: StrokeStats,
  cursor: PressCursor,
): void {
  const { t, x, y, len } = path;
  let length = 0;
  let speeds = 0;
  for (let i = start + 1; i < end; i++) {
    const d = len[i]!;
    const dt = t[i]! - t[i - 1]!;
    length += d;
    if (dt > 0) scratch[speeds++] = d / dt;
  }
  if (length < 100) return;
  const chord = hypot(x[end - 1]! - x[start]!, y[end - 1]! - y[start]!);
  const ratio = chord / length;
  const ruled = ratio > 0.995 && chordDeviation(path, start, end, chord) <= STRAIGHT_DEVIATION_PX;
  if (ratio >= DIRECTED_STROKE) {
    out.directed++;
    if (pressFollows(path, end - 1, cursor)) {
      const cruise = cruiseSpeed(path, start, end, length);
      if (out.aimed === 0 || length < out.shortLength) {
        out.shortLength = length;
        out.shortCruise = cruise;
      }
      if (out.aimed === 0 || length > out.longLength) {
        out.longLength = length;
        out.longCruise = cruise;
      }
      out.aimed++;
    }
  }
  out.strokes++;
  if (ruled) out.straight++;
  if (ratio > out.max) out.max = ratio;
  const speedCv = speeds >= 6 ? cvOf(scratch, 0, speeds) : null;
  if (speedCv !== null && speedCv < FLAT_SPEED_CV) out.flat++;
  // A ruled line has no curvature to judge (every turn change is 0 along a row of pixels).
  if (ruled) return;
  const changes = turnChanges(path, start, end, scratch);
  if (changes < SMOOTH_MIN_TURNS) return;
  out.curvature++;
  const median = sortNumbers(scratch, changes)[changes >> 1]!;
  if (median < SMOOTH_TURN_CHANGE) {
    out.smooth++;
    if (changes >= SMOOTH_LONG_TURNS) out.longSmooth++;
  }
}

/** The largest distance (px) of a stroke's samples from its chord (the line from its first to its last sample). */
function chordDeviation(path: MousePath, start: number, end: number, chord: number): number {
  const { x, y } = path;
  if (chord === 0) return Number.POSITIVE_INFINITY;
  const ux = (x[end - 1]! - x[start]!) / chord;
  const uy = (y[end - 1]! - y[start]!) / chord;
  let max = 0;
  for (let i = start + 1; i < end - 1; i++) {
    const d = Math.abs((x[i]! - x[start]!) * uy - (y[i]! - y[start]!) * ux);
    if (d > max) max = d;
  }
  return max;
}

/**
 * Absolute changes of the signed turning angle between consecutive moves of a stroke (moves with
 * no displacement skipped), written to `into`; returns how many.
 */
function turnChanges(path: MousePath, start: number, end: number, into: Float64Array): number {
  const { x, y } = path;
  let count = 0;
  let prevTurn = 0;
  let haveTurn = false;
  let px = 0;
  let py = 0;
  let havePrev = false;
  for (let i = start + 1; i < end; i++) {
    const dx = x[i]! - x[i - 1]!;
    const dy = y[i]! - y[i - 1]!;
    if (dx === 0 && dy === 0) continue;
    if (havePrev) {
      const turn = Math.atan2(px * dy - py * dx, px * dx + py * dy);
      if (haveTurn) into[count++] = Math.abs(turn - prevTurn);
      prevTurn = turn;
      haveTurn = true;
    }
    px = dx;
    py = dy;
    havePrev = true;
  }
  return count;
}
