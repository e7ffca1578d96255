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

export interface HotState {
  /**
   * Add `amount` to the counter `key` and return its total over the last `windowMs`
   * (sliding window, approximated from two fixed buckets).
   */
  hit(key: string, windowMs: number, amount?: number): Promise<number>;
  /** Current sliding-window total without adding to it. */
  count(key: string, windowMs: number): Promise<number>;
  /** Mark a single-use id as used. True only for the first caller within `ttlMs`. */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  /** Take a lock; returns a release function, or null when another holder has it. */
  lock(key: string, ttlMs: number): Promise<(() => Promise<void>) | null>;
  /** Fixed-window rate limit bucket: at most `limit` calls per `windowMs`. */
  rateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /** Plain values with a time to live. */
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  del(key: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Sliding-window estimate from the current and previous fixed buckets. */
export function slidingTotal(current: number, previous: number, now: number, windowMs: number): number {
  const elapsed = (now % windowMs) / windowMs;
  return current + Math.floor(previous * (1 - elapsed));
}
