/**
 * Hot state: short-lived shared state that must be fast and, in scale mode, shared by every
 * process. In-process (memory.ts) for the embedded default, Redis (redis.ts) for scale mode.
 * Both pass the same conformance suite (hot-state.conformance.ts).
 */
export interface RateLimitResult {
  allowed: boolean;
  /** Requests left in the current window (0 when refused). */
  remaining: number;
  /** Milliseconds until a refused caller may try again (0 when allowed). */
  retryAfterMs: number;
}

/**
 * The in-process store answers synchronously (a value, not a promise), so the scoring hot path
 * can skip promise machinery there; Redis answers with promises. `await` works on both.
 */
export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as Promise<T> | null)?.then === 'function';
}

/** Every value, without a promise when none of them is one. */
export function allOf<T extends readonly unknown[]>(
  values: T,
): MaybePromise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  return (values.some((v) => isPromise(v)) ? Promise.all(values) : values) as MaybePromise<{
    -readonly [K in keyof T]: Awaited<T[K]>;
  }>;
}

export interface HotState {
  /**
   * Since when this store remembers what it was told (epoch ms): the moment an in-process store
   * was created, 0 for a shared store that outlives processes. When it is not 0, a use that must
   * outlive a restart (a proof-of-work challenge's) is also recorded in the database; that also
   * covers the in-process store forgetting a claim under its memory budget.
   */
  readonly remembersSince: number;
  /**
   * Add `amount` to the counter `key` and return its total over the last `windowMs`
   * (sliding window, approximated from two fixed buckets).
   */
  hit(key: string, windowMs: number, amount?: number): MaybePromise<number>;
  /** Current sliding-window total without adding to it. */
  count(key: string, windowMs: number): MaybePromise<number>;
  /**
   * Add `member` to the distinct members of `key` and answer how many there are over the last
   * `windowMs`: the current bucket's members that the previous bucket lacks, plus the previous
   * bucket's members weighted by the part of it still inside the window (like `hit`'s sliding
   * estimate; a member of both buckets counts once). A null or empty member only reads. Approximate (HyperLogLog) for large sets; small
   * counts are exact in practice (in-process: up to 64 members; Redis: its sparse encoding).
   */
  distinct(key: string, member: string | null, windowMs: number): MaybePromise<number>;
  /** Mark a single-use id as used. True only for the first caller within `ttlMs`. */
  claimOnce(key: string, ttlMs: number): MaybePromise<boolean>;
  /**
   * Take the lock `key` for `holder` (any string naming the holder) for at most `ttlMs`. Returns
   * null when taken, or the current holder's string when someone else holds it.
   */
  lock(key: string, holder: string, ttlMs: number): Promise<string | null>;
  /** Give the lock back, if `holder` still holds it. */
  unlock(key: string, holder: string): Promise<void>;
  /**
   * Extend the lock to `ttlMs` from now if `holder` still holds it (a lease kept alive while its
   * work runs). False when the lock is gone or held by someone else.
   */
  renew(key: string, holder: string, ttlMs: number): Promise<boolean>;
  /**
   * Sliding-log rate limit: at most `limit` calls in any span of `windowMs` (exact, not an
   * approximation: the times of the calls in the window are kept). A refused call is not counted.
   */
  rateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /** Plain values with a time to live. */
  get(key: string): MaybePromise<string | null>;
  set(key: string, value: string, ttlMs: number): MaybePromise<void>;
  del(key: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Sliding-window estimate from the current and previous fixed buckets. */
export function slidingTotal(current: number, previous: number, now: number, windowMs: number): number {
  const elapsed = (now % windowMs) / windowMs;
  return current + Math.floor(previous * (1 - elapsed));
}
