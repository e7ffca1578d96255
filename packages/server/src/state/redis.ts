import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { type HotState, type RateLimitResult, slidingTotal } from './hot-state.ts';
import { BATCH, OpBatch } from './redis-batch.ts';

/**
 * Sliding-log rate limit in one step: forget the calls that left the window, count this one if
 * fewer than the limit remain. KEYS: the log (a sorted set of call times). ARGV: now (ms),
 * window (ms), limit, a unique member for this call. Returns {allowed 1|0, calls in the window
 * after this one, the time of the oldest call that must leave before the next is allowed}.
 */
const RATE_LIMIT = `redis.call('zremrangebyscore', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
local used = redis.call('zcard', KEYS[1])
local limit = tonumber(ARGV[3])
if used < limit then
  redis.call('zadd', KEYS[1], ARGV[1], ARGV[4])
  redis.call('pexpire', KEYS[1], ARGV[2])
  return {1, used + 1, 0}
end
local oldest = redis.call('zrange', KEYS[1], used - limit, used - limit, 'WITHSCORES')
return {0, used, tonumber(oldest[2])}`;

const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const RENEW_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

/** The scripts, sent once per connection and then by their SHA1 (EVALSHA). */
interface Scripts {
  /** `BATCH` (state/redis-batch.ts): how many keys, the keys, then the operations. */
  wardenBatch(keyCount: number, ...keysAndArgs: Array<string | number>): Promise<unknown[]>;
  wardenRateLimit(
    key: string,
    now: number,
    windowMs: number,
    limit: number,
    member: string,
  ): Promise<[number, number, number]>;
  wardenUnlock(key: string, holder: string): Promise<number>;
}

/**
 * Hot state shared by every process in scale mode (WARDEN_REDIS_URL). Commands are auto-pipelined:
 * every command issued in one turn of the event loop goes out in one write and comes back in one
 * read, so a decision's ~30 counter operations cost one round trip (and one more for those that
 * depend on an answer), and concurrent decisions share them. The counter operations issued in one
 * tick (hit, count, distinct, get) are moreover one Lua script call (state/redis-batch.ts); every
 * other operation is one command (the multi-step ones Lua scripts too), sent after the batch in
 * progress, so nothing waits on a MULTI/EXEC transaction and commands run in the order issued.
 */
export class RedisHotState implements HotState {
  readonly client: Redis;
  private readonly scripts: Scripts;
  private readonly batch: OpBatch;

  /** Redis outlives Warden's processes: it remembers every claim for its whole TTL. */
  readonly remembersSince = 0;

  /**
   * `now`: the clock of counters' buckets and of expiry times (keys expire at an absolute time on
   * it, as the counters' buckets always did); the wall clock except in tests.
   */
  constructor(
    url: string,
    private readonly prefix = 'warden:',
    private readonly now: () => number = Date.now,
  ) {
    this.client = new Redis(url, {
      lazyConnect: false,
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      enableAutoPipelining: true,
    });
    this.client.defineCommand('wardenBatch', { lua: BATCH });
    this.client.defineCommand('wardenRateLimit', { numberOfKeys: 1, lua: RATE_LIMIT });
    this.client.defineCommand('wardenUnlock', { numberOfKeys: 1, lua: RELEASE_LOCK });
    const scripts = this.client as unknown as Scripts;
    this.scripts = scripts;
    this.batch = new OpBatch((keys, args) => scripts.wardenBatch(keys.length, ...keys, ...args));
  }

  /** The Redis client, for a command that is not batched: the batch in progress goes first. */
  private get direct(): Redis {
    this.batch.flush();
    return this.client;
  }

  async hit(key: string, windowMs: number, amount = 1): Promise<number> {
    const now = this.now();
    const bucket = Math.floor(now / windowMs);
    const current = `${this.prefix}c:${key}:${windowMs}:${bucket}`;
    const previous = `${this.prefix}c:${key}:${windowMs}:${bucket - 1}`;
    const [value, prev] = await this.batch.add('h', [current, previous], [amount, (bucket + 2) * windowMs]);
    return slidingTotal(Number(value), Number(prev), now, windowMs);
  }

  async count(key: string, windowMs: number): Promise<number> {
    const now = this.now();
    const bucket = Math.floor(now / windowMs);
    const [cur, prev] = await this.batch.add(
      'c',
      [`${this.prefix}c:${key}:${windowMs}:${bucket}`, `${this.prefix}c:${key}:${windowMs}:${bucket - 1}`],
      [],
    );
    return slidingTotal(Number(cur ?? 0), Number(prev ?? 0), now, windowMs);
  }

  /** PFADD/PFCOUNT on one HyperLogLog per bucket, kept until the bucket stops counting. */
  async distinct(key: string, member: string | null, windowMs: number): Promise<number> {
    const now = this.now();
    const bucket = Math.floor(now / windowMs);
    const current = `${this.prefix}d:${key}:${windowMs}:${bucket}`;
    const previous = `${this.prefix}d:${key}:${windowMs}:${bucket - 1}`;
    const [before, union] = await this.batch.add(
      'd',
      [current, previous],
      [member ? '1' : '0', member ?? '', (bucket + 2) * windowMs],
    );
    return slidingTotal(Math.max(0, Number(union) - Number(before)), Number(before), now, windowMs);
  }

  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    const ok = await this.direct.set(`${this.prefix}once:${key}`, '1', 'PXAT', this.expiry(ttlMs), 'NX');
    return ok === 'OK';
  }

  async lock(key: string, holder: string, ttlMs: number): Promise<string | null> {
    const lockKey = `${this.prefix}lock:${key}`;
    const ok = await this.direct.set(lockKey, holder, 'PX', Math.max(1, ttlMs), 'NX');
    if (ok === 'OK') return null;
    // Released or expired between the two calls: report an anonymous holder, never a false success.
    return (await this.direct.get(lockKey)) ?? '';
  }

  async unlock(key: string, holder: string): Promise<void> {
    this.batch.flush();
    await this.scripts.wardenUnlock(`${this.prefix}lock:${key}`, holder);
  }

  async renew(key: string, holder: string, ttlMs: number): Promise<boolean> {
    const renewed = await this.direct.eval(
      RENEW_LOCK,
      1,
      `${this.prefix}lock:${key}`,
      holder,
      Math.max(1, ttlMs),
    );
    return renewed === 1;
  }

  async rateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    const member = `${now}:${randomUUID()}`;
    this.batch.flush();
    const [allowed, used, oldest] = await this.scripts.wardenRateLimit(
      `${this.prefix}rl:${key}:${windowMs}`,
      now,
      windowMs,
      limit,
      member,
    );
    if (allowed === 1) return { allowed: true, remaining: limit - used, retryAfterMs: 0 };
    return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, oldest + windowMs - now) };
  }

  async get(key: string): Promise<string | null> {
    const [found, value] = await this.batch.add('g', [`${this.prefix}v:${key}`], []);
    return Number(found) === 1 ? String(value) : null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.direct.set(`${this.prefix}v:${key}`, value, 'PXAT', this.expiry(ttlMs));
  }

  /** When a value set now with `ttlMs` expires, on this store's clock. */
  private expiry(ttlMs: number): number {
    return this.now() + Math.max(1, ttlMs);
  }

  async del(key: string): Promise<void> {
    await this.direct.del(`${this.prefix}v:${key}`);
  }

  async ping(): Promise<void> {
    await this.direct.ping();
  }

  async close(): Promise<void> {
    this.batch.flush();
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
