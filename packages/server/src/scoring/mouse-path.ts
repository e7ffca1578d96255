/**
 * A mouse path (the behaviour sampler's [t, x, y] moves) read into typed arrays, and the measures
 * over all of its samples: zero-length moves, turns, reversals and intervals. Strokes are measured
 * in mouse-strokes.ts, aimed strokes (ended by a press) in mouse-aimed.ts; behavior-metrics.ts
 * turns them into features. The samples are read once into typed arrays (readMousePath): every
 * metric is a numeric loop over them, with no object per sample or per move.
 */

import { hypot } from './hypot.ts';

/** Moves further apart than this start a new stroke. */
export const STROKE_PAUSE_MS = 200;

/**
 * A zigzag (back, forth, back) counts when each of its three moves is at least this long: a hand
 * settling on a target corrects by a pixel (1 px, or 1.4 px diagonally) and can step back and
 * forth so; jitter a library injects steps further (pyHM: 1.5 px or more in 35 of its 36
 * zigzagging pages). docs/signals.md, `mouse_synthetic_jitter`.
 */
export const ZIGZAG_STEP_PX = 1.5;

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
 * The SDK's mouse buffer (256 samples) decimates its oldest half when full, leaving 192 or more
 * samples: below that, every recorded sample stands for one 16 ms throttle window.
 */
export const UNDECIMATED_SAMPLES = 192;

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
      if (reversedAt === i - 1 && i >= 3 && Math.min(len[i]!, len[i - 1]!, len[i - 2]!) >= ZIGZAG_STEP_PX)
        zigzags++;
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
