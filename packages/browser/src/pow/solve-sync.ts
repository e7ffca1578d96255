import { digitRanges, makePlan } from './plan.ts';
import type { Searcher } from './searcher.ts';

/**
 * Searches [start, end] synchronously in slices, calling `onSlice(tried)` after each; returns the
 * solution or -1. The worker and the main-thread fallback both build on it.
 */
export function searchRange(
  searcher: Searcher,
  salt: string,
  challenge: string,
  start: number,
  end: number,
  slice: number,
  onSlice?: (tried: number) => boolean | undefined,
): number {
  for (const [first, last] of digitRanges(start, end)) {
    searcher.reset(makePlan(salt, challenge, first, last));
    while (!searcher.done) {
      const before = searcher.next;
      const found = searcher.step(slice);
      if (found >= 0) return found;
      if (onSlice?.(searcher.next - before) === false) return -1;
    }
  }
  return -1;
}
