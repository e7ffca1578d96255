import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, tuneHeap } from './heap-tuning.ts';

describe('tuneHeap', () => {
  it('lets the old generation grow at most 30 % past its live size before collecting', () => {
    expect(HEAP_GROWING_PERCENT).toBe(30);
  });

  it('bounds how far the heap grows past its live size', () => {
    const set: string[] = [];
    const expected = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`];
    expect(tuneHeap([], undefined, (f) => set.push(f))).toEqual(expected);
    expect(set).toEqual(expected);
  });

  it("leaves the operator's own setting alone (command line or NODE_OPTIONS, either spelling)", () => {
    const set: string[] = [];
    const record = (f: string) => set.push(f);
    expect(tuneHeap(['--heap-growing-percent=80'], undefined, record)).toEqual([]);
    expect(tuneHeap([], '--max-old-space-size=512 --heap_growing_percent=20', record)).toEqual([]);
    expect(set).toEqual([]);
  });
});
