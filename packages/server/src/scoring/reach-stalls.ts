import { type MousePath, STROKE_PAUSE_MS } from './mouse-path.ts';

/**
 * A reach's time with the input source's stalls taken out (docs/signals.md, "Aiming on a busy
 * machine"). A program that steps the pointer (xdotool, SendInput loops) and is starved by a busy
 * machine leaves the pointer where it was until it runs again, then makes its next ordinary step:
 * one interval two to ten times the others, over which the pointer moved as far as in any other.
 * Read as speed, that interval is a stop inside the reach, which fakes a hand's rest, peak and
 * braking and adds time that has nothing to do with the distance. A hand's pointer does not do
 * that: when the page or the machine is late, the device kept reporting and the late event (or
 * its coalesced events) carries the way the hand went meanwhile, a step as long as the delay; and
 * a hand that stops and sets off again sets off with a small step.
 *
 * An interval of the reach is a stall when it lasted STALL_INTERVALS times the reach's median
 * interval or more while the pointer moved an ordinary step: between STALL_STEP[0] and
 * STALL_STEP[1] times the reach's median step. Its time is replaced by the median interval.
 */
export const STALL_INTERVALS = 2;
export const STALL_STEP = [0.5, 1.5] as const;

/**
 * A pause over STROKE_PAUSE_MS inside a movement (which would otherwise cut it in two) is a stall
 * of the input program, not a hand's stop, when the pointer resumed with an ordinary step of the
 * movement around it (STALL_STEP times the median of up to STALL_NEIGHBOURS steps on either side)
 * and went on the way it was going: the step over the pause, and the way it went over the
 * STALL_MIN_SIDE steps after, within STALL_MIN_COS (cosine) of the way it went over the
 * STALL_MIN_SIDE steps before (a curve's bend over a few steps is no turn), with STALL_MIN_SIDE
 * steps at least on either side. Up to STALL_MAX_PAUSE_MS.
 */
export const STALL_NEIGHBOURS = 4;
export const STALL_MIN_SIDE = 2;
export const STALL_MIN_COS = 0.9;
export const STALL_MAX_PAUSE_MS = 600;

export const REACH_STALL_THRESHOLDS = {
  STALL_INTERVALS,
  STALL_STEP,
  STALL_NEIGHBOURS,
  STALL_MIN_SIDE,
  STALL_MIN_COS,
  STALL_MAX_PAUSE_MS,
};

/** Cosine of the angle between (ax, ay) and (bx, by); 0 when either is nought. */
function cosine(ax: number, ay: number, bx: number, by: number): number {
  const d = Math.hypot(ax, ay) * Math.hypot(bx, by);
  return d > 0 ? (ax * bx + ay * by) / d : 0;
}

/**
 * Whether the interval that ends at sample `i` (from..last being one movement's samples, `from`
 * where it set off) is a starved input program's stall rather than a hand's stop, however long
 * it lasted (up to STALL_MAX_PAUSE_MS): docs/signals.md, "A reach split by a stall". A program
 * stepping the pointer that is not scheduled for 200–400 ms on a busy machine resumes with its
 * next step, as long as its others and in their direction (ghost-cursor's far reach, its creep
 * into the target at 1–2 px a step, at load 16). A hand that stopped sets off again from rest
 * with a small step, and a late event from a real device carries the way the hand went
 * meanwhile, a step as long as the delay; a hand that paused to turn goes on another way.
 */
export function stallAt(path: MousePath, i: number, from: number, last: number): boolean {
  const { t, x, y, len } = path;
  const pause = t[i]! - t[i - 1]!;
  if (pause > STALL_MAX_PAUSE_MS) return false;
  const before = Math.min(STALL_NEIGHBOURS, i - 1 - from);
  const after = Math.min(STALL_NEIGHBOURS, last - i);
  if (before < STALL_MIN_SIDE || after < STALL_MIN_SIDE) return false;
  const steps: number[] = [];
  for (let j = i - before; j < i; j++) steps.push(len[j]!);
  for (let j = i + 1; j <= i + after; j++) steps.push(len[j]!);
  const step = median(steps);
  if (step <= 0 || len[i]! < STALL_STEP[0] * step || len[i]! > STALL_STEP[1] * step) return false;
  const k = STALL_MIN_SIDE;
  const bx = x[i - 1]! - x[i - 1 - k]!;
  const by = y[i - 1]! - y[i - 1 - k]!;
  return (
    cosine(bx, by, x[i]! - x[i - 1]!, y[i]! - y[i - 1]!) >= STALL_MIN_COS &&
    cosine(bx, by, x[i + k]! - x[i]!, y[i + k]! - y[i]!) >= STALL_MIN_COS
  );
}

function median(values: number[]): number {
  values.sort((a, b) => a - b);
  return values[values.length >> 1]!;
}

/**
 * `path` with the stalls of the reach `start`…`last` taken out of its time: a copy whose
 * timestamps from `start` to `last` are re-timed (the others are kept), or `path` itself when the
 * reach has none. Positions and step lengths are untouched.
 */
export function withoutStalls(path: MousePath, start: number, last: number): MousePath {
  const { t, len } = path;
  if (last - start < 3) return path;
  const intervals: number[] = [];
  const steps: number[] = [];
  for (let i = start + 1; i <= last; i++) {
    intervals.push(t[i]! - t[i - 1]!);
    steps.push(len[i]!);
  }
  const dt = median(intervals);
  const step = median(steps);
  if (dt <= 0 || step <= 0) return path;
  // A pause over STROKE_PAUSE_MS inside a reach is one `aimedReachSpans` read as a stall (stallAt).
  const stall = (i: number) =>
    t[i]! - t[i - 1]! > STROKE_PAUSE_MS ||
    (t[i]! - t[i - 1]! >= STALL_INTERVALS * dt &&
      len[i]! >= STALL_STEP[0] * step &&
      len[i]! <= STALL_STEP[1] * step);
  let any = false;
  for (let i = start + 1; i <= last && !any; i++) any = stall(i);
  if (!any) return path;
  const retimed = Float64Array.from(t);
  for (let i = start + 1; i <= last; i++) retimed[i] = retimed[i - 1]! + (stall(i) ? dt : t[i]! - t[i - 1]!);
  return { ...path, t: retimed };
}

/**
 * The reach's recorded time (`start` to `last`) with each pause over STROKE_PAUSE_MS inside it (a
 * stall `aimedReachSpans` did not cut the reach at, `stallAt`) counted as the reach's median
 * interval: what speed against distance and the time fit weigh. A path library's own sleeps are
 * its design and are kept (ghost-cursor sleeps 60 ms at most between steps, 80 ms before its
 * overshoot's correction); a wait over 200 ms after which it went on with its next step is the
 * machine's.
 */
export function timeWithoutPauses(path: MousePath, start: number, last: number): number {
  const { t } = path;
  const recorded = t[last]! - t[start]!;
  const intervals: number[] = [];
  let paused = 0;
  for (let i = start + 1; i <= last; i++) {
    const dt = t[i]! - t[i - 1]!;
    intervals.push(dt);
    if (dt > STROKE_PAUSE_MS) paused += dt;
  }
  if (paused === 0) return recorded;
  const dt = median(intervals);
  let pauses = 0;
  for (const d of intervals) if (d > STROKE_PAUSE_MS) pauses++;
  return recorded - paused + pauses * dt;
}
