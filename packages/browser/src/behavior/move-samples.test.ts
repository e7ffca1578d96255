import { describe, expect, it } from 'vitest';
import { eventTime, moveSamples } from './move-samples.ts';

const at = (timeStamp: number, clientX = 0, clientY = 0) => ({ timeStamp, clientX, clientY }) as PointerEvent;
const move = (e: PointerEvent, coalesced?: PointerEvent[]) =>
  ({ ...e, getCoalescedEvents: coalesced ? () => coalesced : undefined }) as unknown as PointerEvent;

describe('moveSamples', () => {
  it('keeps every coalesced position at its own event time, not the late handler time', () => {
    // A busy page dispatched three moves of the last 40 ms in one event, handled at 1,050 ms.
    const e = move(at(1040, 30, 3), [at(1008, 10, 1), at(1024, 20, 2), at(1040, 30, 3)]);
    expect(moveSamples(e, 1050)).toEqual([
      [1008, 10, 1],
      [1024, 20, 2],
      [1040, 30, 3],
    ]);
  });

  it('falls back to the event itself without coalesced events, and to the handler time off the clock', () => {
    expect(moveSamples(move(at(990, 5, 6)), 1000)).toEqual([[990, 5, 6]]);
    expect(moveSamples(move(at(990, 5, 6), []), 1000)).toEqual([[990, 5, 6]]);
    // Epoch-ms stamps (old engines), zero, a time in the future or older than a second: the handler's.
    expect(eventTime(at(1_700_000_000_000), 1000)).toBe(1000);
    expect(eventTime(at(0), 1000)).toBe(1000);
    expect(eventTime(at(1200), 1000)).toBe(1000);
    expect(eventTime(at(5000), 7000)).toBe(7000);
    expect(eventTime(at(999.5), 1000)).toBe(999.5);
  });

  it('never goes back in time within one event', () => {
    const e = move(at(1040), [at(1030, 1, 1), at(0, 2, 2), at(1040, 3, 3)]);
    const ts = moveSamples(e, 1045).map((s) => s[0]);
    expect(ts).toEqual([1030, 1045, 1045]);
  });
});
