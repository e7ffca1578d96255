/**
 * Aimed strokes of a mouse path: a directed stroke (mouse-strokes.ts) that a press follows where it
 * stopped, and its cruise speed, which people raise with the distance (isochrony).
 */

import { hypot } from './hypot.ts';
import type { MousePath } from './mouse-path.ts';

/**
 * An aimed movement ends on its target and acts on it: a directed stroke counts as aimed (and is
 * judged for isochrony) when a press follows its last sample within AIMED_PRESS_MS, within
 * AIMED_PRESS_PX of where it stopped. People reading a page drift the pointer slowly with no press
 * at the end; WindMouse and people alike press 60–230 ms after an aimed stroke, 0–21 px from its
 * last recorded sample (the SDK keeps one move per 16 ms, so the rest position can be a step on).
 */
export const AIMED_PRESS_MS = 1000;
export const AIMED_PRESS_PX = 32;
/** Presses ([t, x, y, …]) in time order, with a cursor: strokes come in time order too. */
export interface PressCursor {
  presses: readonly (readonly number[])[];
  next: number;
}

/**
 * Whether a press comes at or after sample `last` (a stroke's end), within AIMED_PRESS_MS and
 * AIMED_PRESS_PX of it. Moves the cursor past presses before `last`: later strokes end later.
 */
export function pressFollows(path: MousePath, last: number, cursor: PressCursor): boolean {
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
