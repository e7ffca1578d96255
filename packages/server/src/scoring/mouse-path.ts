/**
 * Geometry and timing of a mouse path (the behaviour sampler's [t, x, y] moves): stroke speed
 * profiles, smoothness, turns and intervals. behavior-metrics.ts turns them into features.
 */

/** Moves further apart than this start a new stroke. */
export const STROKE_PAUSE_MS = 200;

export type Point = readonly [number, number, number];

export function cv(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  if (mean <= 0) return 0;
  let sq = 0;
  for (const v of values) sq += (v - mean) ** 2;
  return Math.sqrt(sq / values.length) / mean;
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
 * Median absolute change of the signed turning angle between consecutive moves of a stroke, and
 * how many changes it is taken over; null with fewer than SMOOTH_MIN_TURNS.
 */
function medianTurnChange(
  points: readonly Point[],
  start: number,
  end: number,
): { median: number; n: number } | null {
  const changes: number[] = [];
  let prevTurn: number | null = null;
  let px = 0;
  let py = 0;
  let havePrev = false;
  for (let i = start + 1; i < end; i++) {
    const dx = points[i]![1] - points[i - 1]![1];
    const dy = points[i]![2] - points[i - 1]![2];
    if (dx === 0 && dy === 0) continue;
    if (havePrev) {
      const turn = Math.atan2(px * dy - py * dx, px * dx + py * dy);
      if (prevTurn !== null) changes.push(Math.abs(turn - prevTurn));
      prevTurn = turn;
    }
    px = dx;
    py = dy;
    havePrev = true;
  }
  if (changes.length < SMOOTH_MIN_TURNS) return null;
  changes.sort((a, b) => a - b);
  return { median: changes[changes.length >> 1]!, n: changes.length };
}

/**
 * The length of every move: `lengths[i]` from point i - 1 to point i (lengths[0] unused). Worked
 * out once (Math.hypot is the costly part of these metrics) for strokeStats and mouseStats.
 */
export function moveLengths(points: readonly Point[]): Float64Array {
  const lengths = new Float64Array(points.length);
  for (let i = 1; i < points.length; i++)
    lengths[i] = Math.hypot(points[i]![1] - points[i - 1]![1], points[i]![2] - points[i - 1]![2]);
  return lengths;
}

/** Strokes: runs of moves without a pause over 200 ms. */
export function strokeStats(
  points: readonly Point[],
  lengths: Float64Array,
): {
  strokes: number;
  straight: number;
  max: number;
  flat: number;
  smooth: number;
  longSmooth: number;
  curvature: number;
} {
  let strokes = 0;
  let straight = 0;
  let flat = 0;
  let smooth = 0;
  let longSmooth = 0;
  let curvature = 0;
  let max = 0;
  let start = 0;
  const flush = (end: number) => {
    if (end - start < 8) return;
    let path = 0;
    const speeds: number[] = [];
    for (let i = start + 1; i < end; i++) {
      const d = lengths[i]!;
      const dt = points[i]![0] - points[i - 1]![0];
      path += d;
      if (dt > 0) speeds.push(d / dt);
    }
    if (path < 100) return;
    const a = points[start]!;
    const b = points[end - 1]!;
    const ratio = Math.hypot(b[1] - a[1], b[2] - a[2]) / path;
    strokes++;
    if (ratio > 0.995) straight++;
    if (ratio > max) max = ratio;
    const speedCv = speeds.length >= 6 ? cv(speeds) : null;
    if (speedCv !== null && speedCv < FLAT_SPEED_CV) flat++;
    const turnChange = medianTurnChange(points, start, end);
    if (turnChange !== null) {
      curvature++;
      if (turnChange.median < SMOOTH_TURN_CHANGE) {
        smooth++;
        if (turnChange.n >= SMOOTH_LONG_TURNS) longSmooth++;
      }
    }
  };
  for (let i = 1; i <= points.length; i++) {
    if (i === points.length || points[i]![0] - points[i - 1]![0] > STROKE_PAUSE_MS) {
      flush(i);
      start = i;
    }
  }
  return { strokes, straight, max, flat, smooth, longSmooth, curvature };
}

export function mouseStats(points: readonly Point[], lengths: Float64Array) {
  let zero = 0;
  let turns = 0;
  let reversals = 0;
  let turnSum = 0;
  const intervals: number[] = [];
  for (let i = 1; i < points.length; i++) {
    const p = points[i]!;
    const q = points[i - 1]!;
    intervals.push(p[0] - q[0]);
    const dx = p[1] - q[1];
    const dy = p[2] - q[2];
    if (dx === 0 && dy === 0) {
      zero++;
      continue;
    }
    // Turns are measured within strokes: after a pause a new movement may go anywhere.
    if (i < 2 || q[0] - points[i - 2]![0] > STROKE_PAUSE_MS || p[0] - q[0] > STROKE_PAUSE_MS) continue;
    const r = points[i - 2]!;
    const px = q[1] - r[1];
    const py = q[2] - r[2];
    if (px === 0 && py === 0) continue;
    const cos = (px * dx + py * dy) / (lengths[i - 1]! * lengths[i]!);
    turns++;
    if (cos < 0) reversals++;
    turnSum += Math.acos(Math.max(-1, Math.min(1, cos)));
  }
  const moves = Math.max(1, points.length - 1);
  let total = 0;
  for (const d of intervals) total += d;
  return {
    zero_moves: zero / moves,
    zero_move_count: zero,
    reversals: turns > 0 ? reversals / turns : 0,
    mean_turn: turns > 0 ? turnSum / turns : 0,
    interval_cv: cv(intervals),
    mean_interval_ms: intervals.length > 0 ? total / intervals.length : null,
  };
}
