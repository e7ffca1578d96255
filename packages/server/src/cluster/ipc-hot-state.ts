import type { HotState, RateLimitResult } from '../state/hot-state.ts';
import type { OwnerClient } from './owner-client.ts';

/**
 * The hot state of a `serve --workers N` worker: every operation runs on the primary's in-process
 * store (state/memory.ts), so counters, single-use ids, locks and rate limits are exactly those of
 * one process. The operations of one event-loop turn travel in one message (owner-client.ts).
 */
export class IpcHotState implements HotState {
  constructor(
    private readonly owner: OwnerClient,
    /** The primary's store's `remembersSince`: it outlives every worker. */
    readonly remembersSince: number,
  ) {}

  hit(key: string, windowMs: number, amount = 1): Promise<number> {
    return this.owner.call(['hit', key, windowMs, amount]);
  }

  count(key: string, windowMs: number): Promise<number> {
    return this.owner.call(['count', key, windowMs]);
  }

  distinct(key: string, member: string | null, windowMs: number): Promise<number> {
    return this.owner.call(['distinct', key, member, windowMs]);
  }

  claimOnce(key: string, ttlMs: number): Promise<boolean> {
    return this.owner.call(['claimOnce', key, ttlMs]);
  }

  lock(key: string, holder: string, ttlMs: number): Promise<string | null> {
    return this.owner.call(['lock', key, holder, ttlMs]);
  }

  async unlock(key: string, holder: string): Promise<void> {
    await this.owner.call(['unlock', key, holder]);
  }

  renew(key: string, holder: string, ttlMs: number): Promise<boolean> {
    return this.owner.call(['renew', key, holder, ttlMs]);
  }

  rateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return this.owner.call(['rateLimit', key, limit, windowMs]);
  }

  get(key: string): Promise<string | null> {
    return this.owner.call(['get', key]);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.owner.call(['set', key, value, ttlMs]);
  }

  async del(key: string): Promise<void> {
    await this.owner.call(['del', key]);
  }

  async ping(): Promise<void> {
    await this.owner.call(['ping']);
  }

  /** The store is the primary's: a worker closing leaves it as it is. */
  async close(): Promise<void> {}
}
