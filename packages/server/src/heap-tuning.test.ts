import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, SCAVENGE_FLAG, tuneHeap } from './heap-tuning.ts';

describe('tuneHeap', () => {
  it('lets the old generation grow at most 30 % past its live size before collecting', () => {
    expect(HEAP_GROWING_PERCENT).toBe(30);
  });

  it('bounds how far the heap grows past its live size, and scavenges on the main thread', () => {
    const set: string[] = [];
    const expected = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`, '--no-parallel-scavenge'];
    expect(tuneHeap([], undefined, (f) => set.push(f))).toEqual(expected);
    expect(set).toEqual(expected);
  });

  it("leaves the operator's own setting alone (command line or NODE_OPTIONS, either spelling)", () => {
    const set: string[] = [];
    const record = (f: string) => set.push(f);
    expect(tuneHeap(['--heap-growing-percent=80'], undefined, record)).toEqual([SCAVENGE_FLAG]);
    expect(tuneHeap([], '--max-old-space-size=512 --heap_growing_percent=20', record)).toEqual([
      SCAVENGE_FLAG,
    ]);
    expect(set).toEqual([SCAVENGE_FLAG, SCAVENGE_FLAG]);
  });

  it("leaves the operator's own scavenger threading alone (either way, or all GC on one thread)", () => {
    const set: string[] = [];
    const record = (f: string) => set.push(f);
    const growing = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
    expect(tuneHeap(['--parallel-scavenge'], undefined, record)).toEqual([growing]);
    expect(tuneHeap([], '--no_parallel_scavenge', record)).toEqual([growing]);
    expect(tuneHeap(['--single-threaded-gc'], undefined, record)).toEqual([growing]);
    expect(set).toEqual([growing, growing, growing]);
  });
});
