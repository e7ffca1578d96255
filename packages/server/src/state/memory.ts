import { type HotState, type RateLimitResult, slidingTotal } from './hot-state.ts';

interface Entry {
  value: string;
  expiresAt: number;
}

/** One counter's two most recent fixed buckets (the sliding window needs no more). */
interface Window {
  windowMs: number;
  bucket: number;
  current: number;
  previous: number;
}

/** Move `w` forward to `bucket`: the current bucket becomes the previous one, or both empty. */
function roll(w: Window, bucket: number): void {
  if (w.bucket === bucket) return;
  w.previous = w.bucket === bucket - 1 ? w.current : 0;
  w.current = 0;
  w.bucket = bucket;
}

/** The times of the calls a rate limit let through within its window: `times[head…]`, oldest first. */
interface CallLog {
  windowMs: number;
  times: number[];
  head: number;
}

/** In-process hot state for the embedded single-process default. */
export class MemoryHotState implements HotState {
  private readonly values = new Map<string, Entry>();
  /** Sliding-window counters by `key:windowMs`: one lookup per operation. */
  private readonly counters = new Map<string, Window>();
  /** Rate limits by `key:windowMs`. */
  private readonly callLogs = new Map<string, CallLog>();
  private readonly sweeper: NodeJS.Timeout;

  readonly remembersSince: number;

  constructor(private readonly now: () => number = Date.now) {
    this.remembersSince = now();
    this.sweeper = setInterval(() => this.sweep(SWEEP_SLICE), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  hit(key: string, windowMs: number, amount = 1): number {
    const now = this.now();
    const w = this.window(key, windowMs, now);
    w.current += amount;
    return slidingTotal(w.current, w.previous, now, windowMs);
  }

  count(key: string, windowMs: number): number {
    const now = this.now();
    const w = this.counters.get(`${key}:${windowMs}`);
    if (!w) return 0;
    roll(w, Math.floor(now / windowMs));
    return slidingTotal(w.current, w.previous, now, windowMs);
  }

  claimOnce(key: string, ttlMs: number): boolean {
    return this.setIfAbsent(`once:${key}`, '1', ttlMs);
  }

  async lock(key: string, holder: string, ttlMs: number): Promise<string | null> {
    const lockKey = `lock:${key}`;
    if (this.setIfAbsent(lockKey, holder, ttlMs)) return null;
    return this.values.get(lockKey)?.value ?? '';
  }

  async unlock(key: string, holder: string): Promise<void> {
    const lockKey = `lock:${key}`;
    if (this.values.get(lockKey)?.value === holder) this.values.delete(lockKey);
  }

  async renew(key: string, holder: string, ttlMs: number): Promise<boolean> {
    const entry = this.values.get(`lock:${key}`);
    const now = this.now();
    if (!entry || entry.value !== holder || entry.expiresAt <= now) return false;
    entry.expiresAt = now + ttlMs;
    return true;
  }

  async rateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    const id = `${key}:${windowMs}`;
    let log = this.callLogs.get(id);
    if (!log) {
      log = { windowMs, times: [], head: 0 };
      this.callLogs.set(id, log);
    }
    forgetBefore(log, now - windowMs);
    const used = log.times.length - log.head;
    if (used >= limit) {
      // Free again when the oldest of the last `limit` calls leaves the window.
      const oldest = log.times[log.times.length - limit] ?? now;
      return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, oldest + windowMs - now) };
    }
    log.times.push(now);
    return { allowed: true, remaining: limit - used - 1, retryAfterMs: 0 };
  }

  get(key: string): string | null {
    const entry = this.values.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.values.delete(key);
      return null;
    }
    return entry.value;
  }

  set(key: string, value: string, ttlMs: number): void {
    this.values.set(key, { value, expiresAt: this.now() + ttlMs });
  }

  async del(key: string): Promise<void> {
    this.values.delete(key);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  private setIfAbsent(key: string, value: string, ttlMs: number): boolean {
    const now = this.now();
    const entry = this.values.get(key);
    if (entry && entry.expiresAt > now) return false;
    this.values.set(key, { value, expiresAt: now + ttlMs });
    return true;
  }

  /** The counter's window, created empty, moved forward to now. */
  private window(key: string, windowMs: number, now: number): Window {
    const bucket = Math.floor(now / windowMs);
    const id = `${key}:${windowMs}`;
    let w = this.counters.get(id);
    if (!w) {
      w = { windowMs, bucket, current: 0, previous: 0 };
      this.counters.set(id, w);
    } else roll(w, bucket);
    return w;
  }

  /** Values and counter windows held (expired ones included until swept). */
  get size(): number {
    return this.values.size + this.counters.size + this.callLogs.size;
  }

  private valueCursor: Iterator<[string, Entry]> | null = null;
  private counterCursor: Iterator<[string, Window]> | null = null;
  private callLogCursor: Iterator<[string, CallLog]> | null = null;

  /**
   * Forget expired entries, at most `slice` of each map per call: a sweep of a few million keys in
   * one go would stall every request for tens of milliseconds. Map iterators stay valid while
   * entries are added and deleted, so each call resumes where the last one stopped.
   */
  sweep(slice = Number.POSITIVE_INFINITY): void {
    const now = this.now();
    this.valueCursor = sweepSlice(this.values, this.valueCursor, slice, (e) => e.expiresAt <= now);
    // A window whose newest bucket is two or more buckets old counts nothing any more.
    this.counterCursor = sweepSlice(
      this.counters,
      this.counterCursor,
      slice,
      (w) => Math.floor(now / w.windowMs) - w.bucket >= 2,
    );
    this.callLogCursor = sweepSlice(
      this.callLogs,
      this.callLogCursor,
      slice,
      (log) => (log.times.at(-1) ?? 0) <= now - log.windowMs,
    );
  }
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

/** Visit up to `slice` entries from `cursor` (or the start), deleting the expired ones. */
function sweepSlice<V>(
  map: Map<string, V>,
  cursor: Iterator<[string, V]> | null,
  slice: number,
  expired: (value: V) => boolean,
): Iterator<[string, V]> | null {
  const it = cursor ?? map.entries();
  for (let i = 0; i < slice; i++) {
    const next = it.next();
    if (next.done) return null;
    if (expired(next.value[1])) map.delete(next.value[0]);
  }
  return it;
}
