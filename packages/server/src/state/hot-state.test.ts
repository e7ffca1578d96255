import { afterAll, describe, expect, it } from 'vitest';
import { openTestHotState, testHotStates } from '../testing/context.ts';
import type { HotState } from './hot-state.ts';

// One conformance suite for every implementation: in-process always, Redis when WARDEN_TEST_REDIS_URL is set.
describe.each(testHotStates())('hot state conformance (%s)', (kind) => {
  const state: HotState = openTestHotState(kind);
  afterAll(() => state.close());
  const unique = () => `k${Math.random().toString(36).slice(2)}`;

  it('answers ping', async () => {
    await expect(state.ping()).resolves.toBeUndefined();
  });

  it('counts hits in a window and reads the count back', async () => {
    const key = unique();
    expect(await state.hit(key, 60_000)).toBe(1);
    expect(await state.hit(key, 60_000)).toBe(2);
    expect(await state.hit(key, 60_000, 3)).toBe(5);
    expect(await state.count(key, 60_000)).toBe(5);
    expect(await state.count(unique(), 60_000)).toBe(0);
  });

  it('keeps windows of different lengths apart', async () => {
    const key = unique();
    await state.hit(key, 60_000);
    await state.hit(key, 3_600_000);
    await state.hit(key, 3_600_000);
    expect(await state.count(key, 60_000)).toBe(1);
    expect(await state.count(key, 3_600_000)).toBe(2);
  });

  // Window tests run on a clock of their own, moved by hand: on a loaded machine a 50 ms window on
  // the wall clock could pass between two calls. It starts at the next minute, so what a store
  // writes with an expiry on that clock is still alive on the wall clock (Redis expires by it).
  const stepped = () => {
    const clock = { now: Math.ceil(Date.now() / 60_000) * 60_000 + 1 };
    return { clock, state: openTestHotState(kind, () => clock.now) };
  };

  it('forgets hits once the window has passed', async () => {
    const { clock, state } = stepped();
    const key = unique();
    await state.hit(key, 60_000);
    clock.now += 59_000;
    expect(await state.count(key, 60_000)).toBe(1);
    clock.now += 2 * 60_000;
    expect(await state.count(key, 60_000)).toBe(0);
    await state.close();
  });

  it('counts distinct members once each, and reads without adding', async () => {
    const key = unique();
    expect(await state.distinct(key, null, 60_000)).toBe(0);
    expect(await state.distinct(key, 'a', 60_000)).toBe(1);
    expect(await state.distinct(key, 'b', 60_000)).toBe(2);
    expect(await state.distinct(key, 'a', 60_000)).toBe(2);
    expect(await state.distinct(key, '', 60_000)).toBe(2);
    expect(await state.distinct(key, null, 60_000)).toBe(2);
    for (let i = 0; i < 20; i++) await state.distinct(key, `m${i}`, 60_000);
    expect(await state.distinct(key, null, 60_000)).toBe(22);
    expect(await state.distinct(key, null, 3_600_000)).toBe(0);
  });

  it('keeps distinct counts apart from counters of the same key, and forgets them after the window', async () => {
    const { clock, state } = stepped();
    const key = unique();
    await state.hit(key, 60_000);
    expect(await state.distinct(key, 'x', 60_000)).toBe(1);
    expect(await state.count(key, 60_000)).toBe(1);
    clock.now += 2 * 60_000;
    expect(await state.distinct(key, null, 60_000)).toBe(0);
    await state.close();
  });

  it('lets only the first caller claim a single-use id, even concurrently', async () => {
    const key = unique();
    const results = await Promise.all(Array.from({ length: 20 }, () => state.claimOnce(key, 10_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await state.claimOnce(key, 10_000)).toBe(false);
  });

  it('frees a single-use id after its time to live', async () => {
    const key = unique();
    expect(await state.claimOnce(key, 40)).toBe(true);
    await new Promise((r) => setTimeout(r, 80));
    expect(await state.claimOnce(key, 40)).toBe(true);
  });

  it('holds a lock for one holder at a time, names the holder, and releases it', async () => {
    const key = unique();
    expect(await state.lock(key, 'holder-a', 10_000)).toBeNull();
    expect(await state.lock(key, 'holder-b', 10_000)).toBe('holder-a');
    await state.unlock(key, 'holder-b'); // not the holder: nothing happens
    expect(await state.lock(key, 'holder-b', 10_000)).toBe('holder-a');
    await state.unlock(key, 'holder-a');
    expect(await state.lock(key, 'holder-b', 10_000)).toBeNull();
    await state.unlock(key, 'holder-b');
  });

  it('gives a lock to exactly one of many simultaneous callers', async () => {
    const key = unique();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => state.lock(key, `h${i}`, 10_000)));
    expect(results.filter((r) => r === null)).toHaveLength(1);
    const winner = `h${results.indexOf(null)}`;
    for (const r of results) if (r !== null) expect(r).toBe(winner);
  });

  it('renews a lock only for its holder, and not once it is gone', async () => {
    const key = unique();
    expect(await state.lock(key, 'a', 300)).toBeNull();
    expect(await state.renew(key, 'b', 10_000)).toBe(false);
    expect(await state.renew(key, 'a', 10_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(await state.lock(key, 'b', 10_000)).toBe('a'); // renewed past its first 300 ms
    await state.unlock(key, 'a');
    expect(await state.renew(key, 'a', 10_000)).toBe(false);
  });

  it('expires a lock whose holder never released it', async () => {
    const key = unique();
    expect(await state.lock(key, 'gone', 40)).toBeNull();
    await new Promise((r) => setTimeout(r, 80));
    expect(await state.lock(key, 'next', 40)).toBeNull();
  });

  it('rate limits to the limit per window with a retry-after', async () => {
    const key = unique();
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await state.rateLimit(key, 3, 60_000));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results[0]?.remaining).toBe(2);
    expect(results[3]?.retryAfterMs).toBeGreaterThan(50_000);
    expect(results[3]?.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('lets calls through again once the earlier ones have left the window', async () => {
    const key = unique();
    for (let i = 0; i < 3; i++) expect((await state.rateLimit(key, 3, 300)).allowed).toBe(true);
    const refused = await state.rateLimit(key, 3, 300);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(300);
    await new Promise((r) => setTimeout(r, 350));
    const again = await Promise.all(Array.from({ length: 5 }, () => state.rateLimit(key, 3, 300)));
    expect(again.map((r) => r.allowed).filter(Boolean)).toHaveLength(3);
  });

  // Redis sends the counter operations of a tick as one script call (state/redis-batch.ts): the
  // other commands issued meanwhile must still run in the order issued.
  it('runs operations issued together in the order issued', async () => {
    const [key, counter] = [unique(), unique()];
    const [before, , after, , gone] = await Promise.all([
      state.get(key),
      state.set(key, 'v', 60_000),
      state.get(key),
      state.del(key),
      state.get(key),
    ]);
    expect([before, after, gone]).toEqual([null, 'v', null]);
    const counts = await Promise.all([
      state.hit(counter, 60_000),
      state.count(counter, 60_000),
      state.distinct(counter, 'a', 60_000),
      state.distinct(counter, 'b', 60_000),
      state.hit(counter, 60_000, 2),
      state.get(counter),
    ]);
    expect(counts).toEqual([1, 1, 1, 2, 3, null]);
  });

  it('stores values with a time to live', async () => {
    const key = unique();
    await state.set(key, 'v1', 10_000);
    expect(await state.get(key)).toBe('v1');
    await state.del(key);
    expect(await state.get(key)).toBeNull();
    await state.set(key, 'v2', 40);
    await new Promise((r) => setTimeout(r, 80));
    expect(await state.get(key)).toBeNull();
  });
});
