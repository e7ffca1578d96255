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

describe('memory hot state budget', () => {
  const BUDGET = 4 * 1024 * 1024;

  it('never holds more than its budget under a stream of 300,000 distinct entities', () => {
    let now = 1_700_000_000_000;
    const state = new MemoryHotState(() => now, BUDGET);
    let peakBytes = 0;
    for (let i = 0; i < 300_000; i++, now += 3) {
      state.hit(`vel:site:acct:account-number-${i}`, 60_000);
      state.hit(`vel:site:ip:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, 3_600_000);
      state.distinct(
        `dist:site:ia:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`,
        `account-number-${i}`,
        86_400_000,
      );
      state.claimOnce(`nonce:site:nonce-${i}`, 86_400_000);
      state.set(`hwp:site:device-${i}`, `hw_${i.toString(16).padStart(16, '0')}`, 86_400_000);
      state.set(`devfirst:site:device-${i}`, String(now), 90 * 86_400_000);
      if (i % 1000 === 0) peakBytes = Math.max(peakBytes, state.bytes);
    }
    peakBytes = Math.max(peakBytes, state.bytes);
    expect(peakBytes).toBeLessThanOrEqual(BUDGET);
    expect(state.evictions).toBeGreaterThan(1_000_000);
    // Bounded entries: far fewer than the 1.8 million written.
    expect(state.size).toBeLessThan(200_000);
    // The most recent entities are all still there, with exact counts.
    for (let i = 299_990; i < 300_000; i++) {
      expect(state.count(`vel:site:acct:account-number-${i}`, 60_000)).toBe(1);
      expect(
        state.distinct(`dist:site:ia:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, null, 86_400_000),
      ).toBe(1);
      expect(state.claimOnce(`nonce:site:nonce-${i}`, 86_400_000)).toBe(false);
      expect(state.get(`hwp:site:device-${i}`)).toBe(`hw_${i.toString(16).padStart(16, '0')}`);
    }
    // The oldest are gone.
    expect(state.count('vel:site:acct:account-number-0', 60_000)).toBe(0);
    expect(state.get('hwp:site:device-0')).toBeNull();
    void state.close();
  });

  it('evicts the least recently used: an entity in use survives a flood of new ones', () => {
    let now = 1_700_000_000_000;
    const state = new MemoryHotState(() => now, 1024 * 1024);
    state.hit('vel:busy-account', 3_600_000);
    state.set('sdk:site', '1', 86_400_000);
    for (let i = 0; i < 200_000; i++, now += 1) {
      state.hit(`vel:account-${i}`, 3_600_000);
      state.set(`value-${i}`, `v${i}`, 86_400_000);
      if (i % 1000 === 0) {
        state.hit('vel:busy-account', 3_600_000);
        expect(state.get('sdk:site')).toBe('1');
      }
    }
    expect(state.evictions).toBeGreaterThan(100_000);
    expect(state.count('vel:busy-account', 3_600_000)).toBe(201);
    expect(state.count('vel:account-0', 3_600_000)).toBe(0);
    void state.close();
  });

  it('keeps locks and rate limits apart from a flood of counters', async () => {
    const now = 1_700_000_000_000;
    const state = new MemoryHotState(() => now, 1024 * 1024);
    expect(await state.lock('idem:key', 'holder-a', 60_000)).toBeNull();
    for (let i = 0; i < 3; i++) await state.rateLimit('login:ip:1.2.3.4', 3, 60_000);
    for (let i = 0; i < 100_000; i++) {
      state.hit(`vel:account-${i}`, 60_000);
      state.distinct(`dist:${i}`, 'm', 60_000);
      state.set(`v:${i}`, 'x', 60_000);
    }
    expect(await state.lock('idem:key', 'holder-b', 60_000)).toBe('holder-a');
    expect((await state.rateLimit('login:ip:1.2.3.4', 3, 60_000)).allowed).toBe(false);
    void state.close();
  });
});

describe('memory hot state distinct counts', () => {
  it('is exact up to 64 members and within 10 % for 20,000', () => {
    const state = new MemoryHotState(() => 1_000, 16 * 1024 * 1024);
    for (let i = 1; i <= 64; i++) expect(state.distinct('owner', `member-${i}`, 86_400_000)).toBe(i);
    expect(state.distinct('owner', 'member-7', 86_400_000)).toBe(64);
    for (let i = 65; i <= 20_000; i++) state.distinct('owner', `member-${i}`, 86_400_000);
    const estimate = state.distinct('owner', null, 86_400_000);
    expect(Math.abs(estimate - 20_000) / 20_000).toBeLessThan(0.1);
    void state.close();
  });

  it('slides over the previous bucket, counting a member of both buckets once', () => {
    let now = 0;
    const state = new MemoryHotState(() => now);
    for (const m of ['a', 'b', 'c', 'd']) state.distinct('k', m, 60_000);
    now = 60_000 + 15_000; // a quarter into the next bucket: 3/4 of the previous bucket still counts
    expect(state.distinct('k', 'a', 60_000)).toBe(0 + Math.floor(4 * 0.75));
    now = 60_000 + 30_000;
    expect(state.distinct('k', 'e', 60_000)).toBe(1 + Math.floor(4 * 0.5));
    now = 180_000; // two buckets on: nothing left
    expect(state.distinct('k', null, 60_000)).toBe(0);
    void state.close();
  });

  it('slides over sketched buckets too', () => {
    let now = 0;
    const state = new MemoryHotState(() => now);
    for (let i = 0; i < 100; i++) state.distinct('k', `m${i}`, 60_000);
    now = 60_000;
    // The first 50 again (already in the previous bucket), and nothing else.
    for (let i = 0; i < 50; i++) state.distinct('k', `m${i}`, 60_000);
    const total = state.distinct('k', null, 60_000);
    expect(total).toBeGreaterThanOrEqual(90);
    expect(total).toBeLessThanOrEqual(110);
    void state.close();
  });
});
