import { describe, expect, it } from 'vitest';
import { idTime, timeOrderedId } from './decision-id.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('time-ordered decision ids', () => {
  it('are UUID version 7 strings carrying their creation time', () => {
    const now = Date.UTC(2026, 10, 26, 13, 0, 0, 123);
    const id = timeOrderedId(now);
    expect(id).toMatch(UUID_V7);
    expect(idTime(id)).toBe(now);
    expect(timeOrderedId(0)).toMatch(/^00000000-0000-7/);
  });

  it('sort in creation order across milliseconds, as text', () => {
    const start = 1_700_000_000_000;
    // Steps of 1 ms and across hexadecimal digit boundaries (0x…ff → 0x…100).
    const times = [
      start,
      start + 1,
      start + 15,
      start + 16,
      start + 255,
      start + 256,
      start + 4096,
      start + 86_400_000,
    ];
    for (let round = 0; round < 50; round++) {
      const ids = times.map(timeOrderedId);
      expect([...ids].sort()).toEqual(ids);
    }
  });

  it('are distinct within one millisecond', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => timeOrderedId(1_700_000_000_000)));
    expect(ids.size).toBe(10_000);
  });
});
