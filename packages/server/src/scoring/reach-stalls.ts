import type { MousePath } from './mouse-path.ts';

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

export const REACH_STALL_THRESHOLDS = { STALL_INTERVALS, STALL_STEP };

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
  const stall = (i: number) =>
    t[i]! - t[i - 1]! >= STALL_INTERVALS * dt &&
    len[i]! >= STALL_STEP[0] * step &&
    len[i]! <= STALL_STEP[1] * step;
  let any = false;
  for (let i = start + 1; i <= last && !any; i++) any = stall(i);
  if (!any) return path;
  const retimed = Float64Array.from(t);
  for (let i = start + 1; i <= last; i++) retimed[i] = retimed[i - 1]! + (stall(i) ? dt : t[i]! - t[i - 1]!);
  return { ...path, t: retimed };
}
