/**
 * Geometry and timing of a mouse path (the behaviour sampler's [t, x, y] moves): stroke speed
 * profiles, smoothness, turns and intervals. behavior-metrics.ts turns them into features.
 * The samples are read once into typed arrays (readMousePath): every metric below is a numeric
 * loop over them, with no object per sample or per move.
 */

import { hypot } from './hypot.ts';

/** Moves further apart than this start a new stroke. */
export const STROKE_PAUSE_MS = 200;

/**
 * The valid [t, x, y] samples of a `behavior.mouse` list in time order (a stable sort, as sent
 * when already in order), and the length of every move: `len[i]` from sample i - 1 to sample i
 * (len[0] unused; hypot is the costly part of these metrics, so it is worked out once). All
 * of them are views of one buffer, with `scratch`: working space for strokeStats.
 */
export interface MousePath {
  n: number;
  t: Float64Array;
  x: Float64Array;
  y: Float64Array;
  len: Float64Array;
  scratch: Float64Array;
}

function isSample(s: unknown): s is readonly number[] {
  if (!Array.isArray(s) || s.length < 3) return false;
  const t: unknown = s[0];
  const x: unknown = s[1];
  const y: unknown = s[2];
  return (
    typeof t === 'number' &&
    Number.isFinite(t) &&
    typeof x === 'number' &&
    Number.isFinite(x) &&
    typeof y === 'number' &&
    Number.isFinite(y)
  );
}

/** Samples that are not [finite, finite, finite, …] are skipped. */
export function readMousePath(value: unknown): MousePath {
  const list: readonly unknown[] = Array.isArray(value) ? value : [];
  const cap = list.length;
  const buffer = new Float64Array(5 * cap);
  const t = buffer.subarray(0, cap);
  const x = buffer.subarray(cap, 2 * cap);
  const y = buffer.subarray(2 * cap, 3 * cap);
  let n = 0;
  let inOrder = true;
  for (const s of list) {
    if (!isSample(s)) continue;
    if (n > 0 && s[0]! < t[n - 1]!) inOrder = false;
    t[n] = s[0]!;
    x[n] = s[1]!;
    y[n] = s[2]!;
    n++;
  }
  if (!inOrder) sortByTime(n, t, x, y);
  const len = buffer.subarray(3 * cap, 4 * cap);
  for (let i = 1; i < n; i++) len[i] = hypot(x[i]! - x[i - 1]!, y[i]! - y[i - 1]!);
  return { n, t, x, y, len, scratch: buffer.subarray(4 * cap) };
}

/** Stable: samples of one time keep the order they were sent in. */
function sortByTime(n: number, t: Float64Array, x: Float64Array, y: Float64Array): void {
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => t[a]! - t[b]!);
  const [t0, x0, y0] = [t.slice(0, n), x.slice(0, n), y.slice(0, n)];
  for (let i = 0; i < n; i++) {
    const j = order[i]!;
    t[i] = t0[j]!;
    x[i] = x0[j]!;
    y[i] = y0[j]!;
  }
}

/** Coefficient of variation of values[from, to) (at least 2 values, else null). */
export function cvOf(values: ArrayLike<number>, from: number, to: number): number | null {
  const n = to - from;
  if (n < 2) return null;
  let sum = 0;
  for (let i = from; i < to; i++) sum += values[i]!;
  const mean = sum / n;
  if (mean <= 0) return 0;
  let sq = 0;
  for (let i = from; i < to; i++) sq += (values[i]! - mean) ** 2;
  return Math.sqrt(sq / n) / mean;
}

export function cv(values: readonly number[]): number | null {
  return cvOf(values, 0, values.length);
}

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
 * The SDK's mouse buffer (256 samples) decimates its oldest half when full, leaving 192 or more
 * samples: below that, every recorded sample stands for one 16 ms throttle window.
 */
export const UNDECIMATED_SAMPLES = 192;

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

/**
 * An aimed movement ends on its target and acts on it: a directed stroke counts as aimed (and is
 * judged for isochrony) when a press follows its last sample within AIMED_PRESS_MS, within
 * AIMED_PRESS_PX of where it stopped. People reading a page drift the pointer slowly with no press
 * at the end; WindMouse and people alike press 60–230 ms after an aimed stroke, 0–21 px from its
 * last recorded sample (the SDK keeps one move per 16 ms, so the rest position can be a step on).
 */
export const AIMED_PRESS_MS = 1000;
export const AIMED_PRESS_PX = 32;

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

/** Presses ([t, x, y, …]) in time order, with a cursor: strokes come in time order too. */
interface PressCursor {
  presses: readonly (readonly number[])[];
  next: number;
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
 * Whether a press comes at or after sample `last` (a stroke's end), within AIMED_PRESS_MS and
 * AIMED_PRESS_PX of it. Moves the cursor past presses before `last`: later strokes end later.
 */
function pressFollows(path: MousePath, last: number, cursor: PressCursor): boolean {
  const { presses } = cursor;
  const t = path.t[last]!;
  while (cursor.next < presses.length && presses[cursor.next]![0]! < t) cursor.next++;
  for (let k = cursor.next; k < presses.length; k++) {
    const p = presses[k]!;
    if (p[0]! - t > AIMED_PRESS_MS) return false;
    if (hypot(p[1]! - path.x[last]!, p[2]! - path.y[last]!) <= AIMED_PRESS_PX) return true;
  }
  return false;
}

/**
 * A stroke's cruise speed: the middle half of its path (from a quarter of its length to three
 * quarters) over the time it took (px/ms, positions interpolated between samples). An average over
 * half the stroke, so one late or doubled event barely moves it, and a long stroke's many samples
 * do not make it higher by chance as they would a maximum. 0 when that time is 0.
 */
export function cruiseSpeed(path: MousePath, start: number, end: number, length: number): number {
  const { t, len } = path;
  const from = length / 4;
  const to = (3 * length) / 4;
  let covered = 0;
  let tFrom = -1;
  let tTo = -1;
  for (let i = start + 1; i < end && tTo < 0; i++) {
    const step = len[i]!;
    const next = covered + step;
    if (tFrom < 0 && next >= from) tFrom = t[i - 1]! + ((from - covered) / step) * (t[i]! - t[i - 1]!);
    if (next >= to) tTo = t[i - 1]! + ((to - covered) / step) * (t[i]! - t[i - 1]!);
    covered = next;
  }
  return tTo > tFrom && tFrom >= 0 ? (to - from) / (tTo - tFrom) : 0;
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

export interface MouseStats {
  zero_moves: number;
  zero_move_count: number;
  reversals: number;
  /** Reversals right after a reversal: the pointer stepping back and forth (jitter). */
  zigzags: number;
  mean_turn: number;
  interval_cv: number | null;
  mean_interval_ms: number | null;
}

/** Zero-length moves, turns and reversals within strokes, and the intervals between samples. */
export function mouseStats(path: MousePath): MouseStats {
  const { n, t, x, y, len } = path;
  let zero = 0;
  let turns = 0;
  let reversals = 0;
  let zigzags = 0;
  /** The sample at which the last reversal was seen (-1: none). */
  let reversedAt = -1;
  let turnSum = 0;
  let intervalSum = 0;
  for (let i = 1; i < n; i++) {
    intervalSum += t[i]! - t[i - 1]!;
    const dx = x[i]! - x[i - 1]!;
    const dy = y[i]! - y[i - 1]!;
    if (dx === 0 && dy === 0) {
      zero++;
      continue;
    }
    // Turns are measured within strokes: after a pause a new movement may go anywhere.
    if (i < 2 || t[i - 1]! - t[i - 2]! > STROKE_PAUSE_MS || t[i]! - t[i - 1]! > STROKE_PAUSE_MS) continue;
    const px = x[i - 1]! - x[i - 2]!;
    const py = y[i - 1]! - y[i - 2]!;
    if (px === 0 && py === 0) continue;
    const cos = (px * dx + py * dy) / (len[i - 1]! * len[i]!);
    turns++;
    if (cos < 0) {
      reversals++;
      if (reversedAt === i - 1) zigzags++;
      reversedAt = i;
    }
    turnSum += Math.acos(Math.max(-1, Math.min(1, cos)));
  }
  const moves = Math.max(1, n - 1);
  const intervals = n - 1;
  return {
    zero_moves: zero / moves,
    zero_move_count: zero,
    reversals: turns > 0 ? reversals / turns : 0,
    zigzags,
    mean_turn: turns > 0 ? turnSum / turns : 0,
    interval_cv: intervalCv(t, n, intervalSum),
    mean_interval_ms: intervals > 0 ? intervalSum / intervals : null,
  };
}

/** cvOf over the intervals t[i] - t[i - 1], their sum known. */
function intervalCv(t: Float64Array, n: number, sum: number): number | null {
  const m = n - 1;
  if (m < 2) return null;
  const mean = sum / m;
  if (mean <= 0) return 0;
  let sq = 0;
  for (let i = 1; i < n; i++) sq += (t[i]! - t[i - 1]! - mean) ** 2;
  return Math.sqrt(sq / m) / mean;
}
