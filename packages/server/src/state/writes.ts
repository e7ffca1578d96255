import { allOf, type HotState, type MaybePromise } from './hot-state.ts';

/**
 * A hot-state write decided in advance, as plain data (it crosses a process boundary as it is):
 * add one to a windowed counter, or set a value for a time.
 */
export type HotStateWrite =
  | ['hit', key: string, windowMs: number]
  | ['set', key: string, value: string, ttlMs: number];

/** Apply `writes`, all at once; no promise with the in-process store. */
export function applyWrites(
  h: Pick<HotState, 'hit' | 'set'>,
  writes: readonly HotStateWrite[],
): MaybePromise<unknown> {
  if (writes.length === 0) return undefined;
  return allOf(writes.map((w) => (w[0] === 'hit' ? h.hit(w[1], w[2]) : h.set(w[1], w[2], w[3]))));
}
