import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { createTestContext } from '../testing/context.ts';
import { beginIdempotent, IN_FLIGHT_LEASE_MS } from './idempotency.ts';

/**
 * The in-flight lock of an idempotency key is a short lease, renewed while the request runs: a live
 * request keeps its key however long it takes, and the key of a process that died mid-request is
 * free again within the lease (it was held for 60 s). The clock and the renewal timer are faked.
 */
describe('idempotency in-flight lease', () => {
  let ctx: AppContext;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    ctx = await createTestContext();
  });
  afterEach(() => vi.clearAllTimers());
  afterAll(async () => {
    vi.useRealTimers();
    await ctx.hotState.close();
    await ctx.database.close();
  });

  let n = 0;
  const scope = () => ({ siteId: 'site_lease', route: 'verify' as const, key: `key-${++n}` });
  const begin = (s: ReturnType<typeof scope>, decisionId: string) =>
    beginIdempotent(ctx, s, { current: 'hash-1', older: () => 'hash-1' }, decisionId, Date.now());
  const inProgress = async (s: ReturnType<typeof scope>) => {
    const err = await begin(s, 'other').catch((e: unknown) => e);
    return err instanceof ApiError && err.code === 'idempotency_in_progress';
  };
  /** Advance the fake clock and timers, letting the renewals they fire settle. */
  const advance = async (ms: number) => {
    await vi.advanceTimersByTimeAsync(ms);
  };

  it('keeps the key of a request that runs longer than the lease, and frees it on release', async () => {
    const s = scope();
    const first = await begin(s, 'd1');
    if (first.kind !== 'owned') throw new Error('expected to own the key');
    await advance(IN_FLIGHT_LEASE_MS - 1_000);
    await advance(IN_FLIGHT_LEASE_MS - 1_000);
    await advance(IN_FLIGHT_LEASE_MS - 1_000);
    // 12 s in: past two leases, still held (renewed every third of the lease).
    expect(await inProgress(s)).toBe(true);
    await first.key.release();
    const second = await begin(s, 'd2');
    expect(second.kind).toBe('owned');
    if (second.kind === 'owned') await second.key.release();
  });

  it('frees the key of a process that died mid-request within one lease', async () => {
    const s = scope();
    const timers = vi.spyOn(globalThis, 'setInterval');
    const dying = await begin(s, 'd3');
    expect(dying.kind).toBe('owned');
    const renewal = timers.mock.results.at(-1)?.value as NodeJS.Timeout;
    timers.mockRestore();
    await advance(IN_FLIGHT_LEASE_MS);
    expect(await inProgress(s)).toBe(true);
    // The process dies: its renewal stops and it never releases the key.
    clearInterval(renewal);
    // Its last renewal was less than a lease ago: one more lease and the key is free.
    await advance(IN_FLIGHT_LEASE_MS + 1);
    const retry = await begin(s, 'd3-retry');
    expect(retry.kind).toBe('owned');
    if (retry.kind === 'owned') await retry.key.release();
  });

  it('stops renewing once released: the lease is not kept alive by a finished request', async () => {
    const s = scope();
    const timers = vi.getTimerCount();
    const first = await begin(s, 'd4');
    if (first.kind !== 'owned') throw new Error('expected to own the key');
    expect(vi.getTimerCount()).toBe(timers + 1);
    await first.key.release();
    expect(vi.getTimerCount()).toBe(timers);
  });
});
