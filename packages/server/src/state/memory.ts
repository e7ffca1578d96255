import { DistinctCounts } from './distinct-counts.ts';
import { keyHash } from './hash.ts';
import { type HotState, type RateLimitResult, slidingTotal } from './hot-state.ts';
import { Slab } from './slab.ts';

/**
 * In-process hot state for the embedded single-process default, held to a byte budget
 * (WARDEN_MEMORY_MB × HOT_STATE_SHARE, config.ts) whatever the number of keys: four slabs
 * (state/slab.ts) of fixed-size records under 52-bit key hashes, each dropping its least recently
 * used records when full. What eviction costs each signal: docs/architecture.md, "Hot state".
 *
 * - counters: sliding-window counters (hit/count), one record per key and window;
 * - distinct: distinct counts per key and window, the members of the current and previous
 *   bucket inline, then a MemberSet (exact to 64, then a sketch): state/distinct-counts.ts;
 * - values: get/set values (numbers inline, other strings as side objects) and claimOnce ids;
 * - guards: locks and rate-limit call logs, kept apart so that a flood of counters never
 *   pushes out a lock in use or a login rate limit.
 */
export const SLAB_SHARES = { counters: 0.3, distinct: 0.45, values: 0.18, guards: 0.07 } as const;
/** The default budget when none is given (tests, tools): 64 MiB. */
export const DEFAULT_HOT_STATE_BYTES = 64 * 1024 * 1024;

// Record layouts (numbers per record).
const C_WINDOW = 0;
const C_BUCKET = 1;
const C_CURRENT = 2;
const C_PREVIOUS = 3;
const V_EXPIRES = 0;
const V_NUMBER = 1;
// Distinct records: window, bucket, inline member counts of the current and previous buckets
// (-1: the members are in the side object).
// Salts that keep one key's roles apart in the values and guards slabs (windows are ≥ 1).
const SALT_VALUE = 1;
const SALT_CLAIM = 2;
const SALT_LOCK = 0;

/** The times of the calls a rate limit let through within its window: `times[head…]`, oldest first. */
interface CallLog {
  times: number[];
  head: number;
}

/** A value stored inline as a number when it is a plain integer (its String() is itself). */
const NUMERIC = /^(0|-?[1-9]\d{0,14})$/;

export class MemoryHotState implements HotState {
  private readonly counters: Slab;
  private readonly distincts: DistinctCounts;
  private readonly values: Slab<string>;
  private readonly guards: Slab<string | CallLog>;
  private readonly sweeper: NodeJS.Timeout;

  /**
   * When this store began (it remembers nothing from before a restart). It may also forget a
   * claim under memory pressure, so uses that must never repeat are recorded in the database too.
   */
  readonly remembersSince: number;

  constructor(
    private readonly now: () => number = Date.now,
    readonly budgetBytes: number = DEFAULT_HOT_STATE_BYTES,
  ) {
    this.remembersSince = now();
    const share = (s: number) => Math.floor(budgetBytes * s);
    this.counters = new Slab({ doubles: 4, slotBudget: share(SLAB_SHARES.counters) });
    this.distincts = new DistinctCounts(share(SLAB_SHARES.distinct * 0.7), share(SLAB_SHARES.distinct * 0.3));
    this.values = new Slab({
      doubles: 2,
      slotBudget: share(SLAB_SHARES.values * 0.6),
      sideBudget: share(SLAB_SHARES.values * 0.4),
    });
    this.guards = new Slab({
      doubles: 2,
      slotBudget: share(SLAB_SHARES.guards * 0.4),
      sideBudget: share(SLAB_SHARES.guards * 0.6),
    });
    this.sweeper = setInterval(() => this.sweep(SWEEP_SLICE), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  hit(key: string, windowMs: number, amount = 1): number {
    const now = this.now();
    const slot = this.counter(keyHash(key, windowMs), windowMs, now, true);
    const d = this.counters.data;
    const at = slot * 4;
    d[at + C_CURRENT] = (d[at + C_CURRENT] as number) + amount;
    return slidingTotal(d[at + C_CURRENT] as number, d[at + C_PREVIOUS] as number, now, windowMs);
  }

  count(key: string, windowMs: number): number {
    const now = this.now();
    const slot = this.counter(keyHash(key, windowMs), windowMs, now, false);
    if (slot < 0) return 0;
    const d = this.counters.data;
    return slidingTotal(d[slot * 4 + C_CURRENT] as number, d[slot * 4 + C_PREVIOUS] as number, now, windowMs);
  }

  distinct(key: string, member: string | null, windowMs: number): number {
    return this.distincts.count(keyHash(key, windowMs), member, windowMs, this.now());
  }

  claimOnce(key: string, ttlMs: number): boolean {
    const now = this.now();
    const v = this.values;
    const hash = keyHash(key, SALT_CLAIM);
    let slot = v.find(hash);
    if (slot >= 0) {
      v.touch(slot);
      if ((v.data[slot * 2 + V_EXPIRES] as number) > now) return false;
    } else slot = v.insert(hash);
    v.data[slot * 2 + V_EXPIRES] = now + ttlMs;
    v.data[slot * 2 + V_NUMBER] = 1;
    return true;
  }

  async lock(key: string, holder: string, ttlMs: number): Promise<string | null> {
    const now = this.now();
    const g = this.guards;
    const hash = keyHash(key, SALT_LOCK);
    let slot = g.find(hash);
    if (slot >= 0) {
      g.touch(slot);
      if ((g.data[slot * 2 + V_EXPIRES] as number) > now) {
        const current = g.getSide(slot);
        return typeof current === 'string' ? current : '';
      }
    } else slot = g.insert(hash);
    g.data[slot * 2 + V_EXPIRES] = now + ttlMs;
    g.setSide(slot, holder, stringBytes(holder));
    return null;
  }

  async unlock(key: string, holder: string): Promise<void> {
    const g = this.guards;
    const slot = g.find(keyHash(key, SALT_LOCK));
    if (slot >= 0 && g.getSide(slot) === holder) g.remove(slot);
  }

  async renew(key: string, holder: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const g = this.guards;
    const slot = g.find(keyHash(key, SALT_LOCK));
    if (slot < 0 || g.getSide(slot) !== holder || (g.data[slot * 2 + V_EXPIRES] as number) <= now)
      return false;
    g.touch(slot);
    g.data[slot * 2 + V_EXPIRES] = now + ttlMs;
    return true;
  }

  async rateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    const g = this.guards;
    const hash = keyHash(key, windowMs);
    let slot = g.find(hash);
    let log: CallLog;
    if (slot >= 0) {
      g.touch(slot);
      log = g.getSide(slot) as CallLog;
    } else {
      slot = g.insert(hash);
      log = { times: [], head: 0 };
    }
    g.data[slot * 2 + 1] = windowMs;
    forgetBefore(log, now - windowMs);
    const used = log.times.length - log.head;
    if (used >= limit) {
      // Free again when the oldest of the last `limit` calls leaves the window.
      const oldest = log.times[log.times.length - limit] ?? now;
      g.setSide(slot, log, callLogBytes(log));
      return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, oldest + windowMs - now) };
    }
    log.times.push(now);
    g.data[slot * 2 + V_EXPIRES] = now + windowMs;
    g.setSide(slot, log, callLogBytes(log));
    return { allowed: true, remaining: limit - used - 1, retryAfterMs: 0 };
  }

  get(key: string): string | null {
    const v = this.values;
    const slot = v.find(keyHash(key, SALT_VALUE));
    if (slot < 0) return null;
    if ((v.data[slot * 2 + V_EXPIRES] as number) <= this.now()) {
      v.remove(slot);
      return null;
    }
    v.touch(slot);
    return v.getSide(slot) ?? String(v.data[slot * 2 + V_NUMBER]);
  }

  set(key: string, value: string, ttlMs: number): void {
    const v = this.values;
    const hash = keyHash(key, SALT_VALUE);
    let slot = v.find(hash);
    if (slot >= 0) v.touch(slot);
    else slot = v.insert(hash);
    v.data[slot * 2 + V_EXPIRES] = this.now() + ttlMs;
    if (NUMERIC.test(value)) {
      v.data[slot * 2 + V_NUMBER] = Number(value);
      v.setSide(slot, undefined, 0);
    } else {
      v.data[slot * 2 + V_NUMBER] = 0;
      v.setSide(slot, value, stringBytes(value));
    }
  }

  async del(key: string): Promise<void> {
    const slot = this.values.find(keyHash(key, SALT_VALUE));
    if (slot >= 0) this.values.remove(slot);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  /** Records held (expired ones included until swept or read). */
  get size(): number {
    return this.counters.size + this.distincts.slab.size + this.values.size + this.guards.size;
  }

  /** Bytes held by the store's arrays and the reported sizes of its side objects: ≤ budgetBytes. */
  get bytes(): number {
    return this.counters.bytes + this.distincts.slab.bytes + this.values.bytes + this.guards.bytes;
  }

  /** Records dropped to stay within the budget since the start. */
  get evictions(): number {
    return (
      this.counters.evictions + this.distincts.slab.evictions + this.values.evictions + this.guards.evictions
    );
  }

  /**
   * Forget expired records, visiting at most `slice` slots of each slab per call (the budget
   * bounds memory; sweeping frees room for live records early and keeps `size` honest).
   */
  sweep(slice = Number.POSITIVE_INFINITY): void {
    const now = this.now();
    const values = this.values.data;
    this.values.sweep(slice, (slot) => (values[slot * 2 + V_EXPIRES] as number) <= now);
    const counters = this.counters.data;
    // A window whose newest bucket is two or more buckets old counts nothing any more.
    this.counters.sweep(slice, (slot) => {
      const w = counters[slot * 4 + C_WINDOW] as number;
      return Math.floor(now / w) - (counters[slot * 4 + C_BUCKET] as number) >= 2;
    });
    this.distincts.sweep(slice, now);
    const guards = this.guards.data;
    this.guards.sweep(slice, (slot) => (guards[slot * 2 + V_EXPIRES] as number) <= now);
  }

  /** The counter's record moved forward to now (created when `create`), or -1. */
  private counter(hash: number, windowMs: number, now: number, create: boolean): number {
    const c = this.counters;
    const bucket = Math.floor(now / windowMs);
    let slot = c.find(hash);
    if (slot < 0) {
      if (!create) return -1;
      slot = c.insert(hash);
      c.data[slot * 4 + C_WINDOW] = windowMs;
      c.data[slot * 4 + C_BUCKET] = bucket;
      return slot;
    }
    c.touch(slot);
    const d = c.data;
    const at = slot * 4;
    const last = d[at + C_BUCKET] as number;
    if (last !== bucket) {
      d[at + C_PREVIOUS] = last === bucket - 1 ? (d[at + C_CURRENT] as number) : 0;
      d[at + C_CURRENT] = 0;
      d[at + C_BUCKET] = bucket;
    }
    return slot;
  }
}

/** Approximate heap bytes of a string (header and up to two bytes a character). */
function stringBytes(s: string): number {
  return 32 + 2 * s.length;
}

function callLogBytes(log: CallLog): number {
  return 96 + 8 * log.times.length;
}

/** Drop the calls at or before `since` from the front of the log (compacting now and then). */
function forgetBefore(log: CallLog, since: number): void {
  while (log.head < log.times.length && (log.times[log.head] as number) <= since) log.head++;
  if (log.head === log.times.length) {
    log.times = [];
    log.head = 0;
  } else if (log.head >= 64 && log.head * 2 >= log.times.length) {
    log.times = log.times.slice(log.head);
    log.head = 0;
  }
}

const SWEEP_INTERVAL_MS = 250;
const SWEEP_SLICE = 5_000;
