import { hypot } from './hypot.ts';
import type { MousePath } from './mouse-path.ts';

/**
 * Where a reach's primary movement ended when it overshot and turned back (docs/signals.md, "An
 * overshoot's correction"). ghost-cursor reaches a far target (over 500 px) by an overshoot — a
 * Bezier stepped to a point up to 120 px past or beside it — then a short, slow correction back.
 * On a busy machine that correction crawls in 1–2 px steps for up to a second, and read over the
 * whole reach it is a hand's tail: the path piles up early and trails off, the speed falls into the
 * target. Up to where it turned, the Bezier's even steps show: it covered its path evenly and ran
 * into the turn at speed. A hand that overshoots brakes into the turn (its speed falls to nought
 * where it reverses). Read by `mouse_reaches_untailed` and `arrived` (aiming-metrics.ts) besides the
 * whole reach: either reading finding the library's shape counts.
 *
 * The turn: the first sample, once the pointer has covered PRIMARY_MIN_CHORD of the way from where
 * it rested to where it stopped, at which its way over the PRIMARY_TURN_MOVES moves out turns more
 * than 90° from its way over the PRIMARY_TURN_MOVES moves in (both PRIMARY_TURN_MIN_PX or more: a
 * pixel's rounding turns freely), PRIMARY_MIN_SPEEDS sample intervals or more after the reach set off.
 */
export const PRIMARY_TURN_MOVES = 2;
export const PRIMARY_TURN_MIN_PX = 2;
export const PRIMARY_MIN_CHORD = 0.5;
export const PRIMARY_MIN_SPEEDS = 4;

export const REACH_PRIMARY_THRESHOLDS = {
  PRIMARY_TURN_MOVES,
  PRIMARY_TURN_MIN_PX,
  PRIMARY_MIN_CHORD,
  PRIMARY_MIN_SPEEDS,
};

/**
 * The sample at which the reach from `start` to `last` turned back (above), or `last` when it did
 * not. The sample before `start` is where it rested (`aimedReachSpans`).
 */
export function primaryEnd(path: MousePath, start: number, last: number): number {
  const { x, y } = path;
  const rest = start > 0 ? start - 1 : start;
  const chord = hypot(x[last]! - x[rest]!, y[last]! - y[rest]!);
  const k = PRIMARY_TURN_MOVES;
  for (let i = start + Math.max(PRIMARY_MIN_SPEEDS, k); i <= last - k; i++) {
    if (hypot(x[i]! - x[rest]!, y[i]! - y[rest]!) < PRIMARY_MIN_CHORD * chord) continue;
    const ax = x[i]! - x[i - k]!;
    const ay = y[i]! - y[i - k]!;
    const bx = x[i + k]! - x[i]!;
    const by = y[i + k]! - y[i]!;
    if (hypot(ax, ay) < PRIMARY_TURN_MIN_PX || hypot(bx, by) < PRIMARY_TURN_MIN_PX) continue;
    if (ax * bx + ay * by < 0) return i;
  }
  return last;
}
