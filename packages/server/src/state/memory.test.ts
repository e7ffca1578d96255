import { describe, expect, it } from 'vitest';
import { MemoryHotState } from './memory.ts';

describe('memory hot state', () => {
  it('answers counters, single-use ids and values at once, without promises (the hot path relies on it)', () => {
    const state = new MemoryHotState(() => 1_000);
    expect(state.hit('k', 60_000)).toBe(1);
    expect(state.count('k', 60_000)).toBe(1);
    expect(state.claimOnce('id', 1_000)).toBe(true);
    expect(state.claimOnce('id', 1_000)).toBe(false);
    expect(state.set('v', 'x', 1_000)).toBeUndefined();
    expect(state.get('v')).toBe('x');
    void state.close();
  });
});

describe('memory hot state sweeping', () => {
  it('forgets expired values and idle counters a slice at a time, keeping live ones', async () => {
    let now = 1_000_000;
    const state = new MemoryHotState(() => now);
    for (let i = 0; i < 10; i++) {
      await state.set(`short-${i}`, 'x', 1_000);
      await state.hit(`idle-${i}`, 60_000);
    }
    await state.set('long', 'kept', 3_600_000);
    now += 180_000; // three minutes: the 1 s values expired, the 1-minute counters are idle
    await state.hit('busy', 60_000);
    expect(state.size).toBe(22);
    state.sweep(4);
    expect(state.size).toBe(14);
    for (let i = 0; i < 5; i++) state.sweep(4);
    expect(state.size).toBe(2);
    expect(await state.get('long')).toBe('kept');
    expect(await state.count('busy', 60_000)).toBe(1);
    await state.close();
  });

  it('keeps a counter whose previous bucket still counts', async () => {
    let now = 0;
    const state = new MemoryHotState(() => now);
    await state.hit('k', 60_000, 5);
    now += 90_000; // next bucket: the old one still weighs in the sliding window
    state.sweep();
    expect(await state.count('k', 60_000)).toBe(2);
    await state.close();
  });
});

describe('memory hot state rate limit', () => {
  it('lets at most the limit through in any window, across a minute boundary (no double burst)', async () => {
    let now = 57_500;
    const state = new MemoryHotState(() => now);
    for (let i = 0; i < 10; i++, now += 100)
      expect((await state.rateLimit('login', 10, 60_000)).allowed).toBe(true);
    now = 60_100; // a fixed calendar-minute window would start again here
    const refused = await state.rateLimit('login', 10, 60_000);
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterMs: 57_500 + 60_000 - 60_100 });
    now = 57_500 + 60_000; // the first call has left the window: one more, not ten
    expect((await state.rateLimit('login', 10, 60_000)).allowed).toBe(true);
    expect((await state.rateLimit('login', 10, 60_000)).allowed).toBe(false);
    await state.close();
  });

  it('does not count refused calls, and forgets idle logs when swept', async () => {
    let now = 0;
    const state = new MemoryHotState(() => now);
    await state.rateLimit('k', 1, 1_000);
    for (let i = 0; i < 5; i++, now += 100)
      expect((await state.rateLimit('k', 1, 1_000)).allowed).toBe(false);
    now = 1_000;
    expect(await state.rateLimit('k', 1, 1_000)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
    now = 5_000;
    state.sweep();
    expect(state.size).toBe(0);
    await state.close();
  });
});
