import { hypot } from './hypot.ts';
import { AIMED_PRESS_MS, AIMED_PRESS_PX } from './mouse-aimed.ts';
import { type MousePath, STROKE_PAUSE_MS } from './mouse-path.ts';
import { stallAt } from './reach-stalls.ts';

/**
 * The reaches the page-level aiming measurements judge (aiming-metrics.ts, reach-shape.ts): one
 * selection, so every aiming tell speaks of the same reaches.
 */

/** A reach's chord (from where the pointer rested to where it stopped) must be this long, px. */
export const REACH_MIN_PX = 50;
/** …and have this many speeds (sample intervals) after it set off. */
export const REACH_MIN_SPEEDS = 4;

/** [start, last] sample indices of each aimed reach of a page (`aimedReachSpans`). */
export type ReachSpans = ReadonlyArray<readonly [number, number]>;

/**
 * [start, last] sample indices of each aimed reach, one per press ([t, x, y, …], time order): the
 * movement since the last pause over STROKE_PAUSE_MS before the press, when the press came within
 * AIMED_PRESS_MS and AIMED_PRESS_PX of where it stopped. It counts only when it is the whole way
 * since the previous press: the pointer rested, before it set off, within AIMED_PRESS_PX of where
 * it was then (of where the page first saw it, for the first press). A movement that began
 * elsewhere after an earlier one (a person reading, a touchpad user lifting the finger midway) is
 * part of a reach whose start is unknown. The sample before `start` is where it rested. A pause
 * that is an input program's stall (`stallAt`, reach-stalls.ts: the pointer resumed with an
 * ordinary step, the way it was going) does not cut the movement: a busy machine's late steps
 * split no reach in two.
 */
export function aimedReachSpans(
  path: MousePath,
  presses: readonly (readonly number[])[],
): Array<[number, number]> {
  const { n, t, x, y } = path;
  const out: Array<[number, number]> = [];
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
      if (t[i]! - t[i - 1]! > STROKE_PAUSE_MS && !stallAt(path, i, from, last)) {
        start = i;
        break;
      }
    }
    const rest = start > 0 ? start - 1 : start;
    const anchor = from > 0 ? from - 1 : 0;
    if (hypot(x[rest]! - x[anchor]!, y[rest]! - y[anchor]!) > AIMED_PRESS_PX) continue;
    if (last - start < REACH_MIN_SPEEDS || hypot(x[last]! - x[rest]!, y[last]! - y[rest]!) < REACH_MIN_PX)
      continue;
    out.push([start, last]);
  }
  return out;
}
