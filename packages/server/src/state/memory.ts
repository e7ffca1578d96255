import { randomUUID } from 'node:crypto';
import { type HotState, type RateLimitResult, slidingTotal } from './hot-state.ts';

interface Entry {
  value: string;
  expiresAt: number;
}

/** In-process hot state for the embedded single-process default. */
export class MemoryHotState implements HotState {
  private readonly values = new Map<string, Entry>();
  private readonly counters = new Map<string, { value: number; expiresAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 30_000);
    this.sweeper.unref();
  }

  async hit(key: string, windowMs: number, amount = 1): Promise<number> {
    const now = this.now();
    const bucket = Math.floor(now / windowMs);
    const currentKey = `${key}:${windowMs}:${bucket}`;
    const entry = this.counters.get(currentKey);
    const value = (entry && entry.expiresAt > now ? entry.value : 0) + amount;
    this.counters.set(currentKey, { value, expiresAt: (bucket + 2) * windowMs });
    return slidingTotal(value, this.bucketValue(`${key}:${windowMs}:${bucket - 1}`, now), now, windowMs);
  }

  async count(key: string, windowMs: number): Promise<number> {
    const now = this.now();
    const bucket = Math.floor(now / windowMs);
    return slidingTotal(
      this.bucketValue(`${key}:${windowMs}:${bucket}`, now),
      this.bucketValue(`${key}:${windowMs}:${bucket - 1}`, now),
      now,
      windowMs,
    );
  }

  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    return this.setIfAbsent(`once:${key}`, '1', ttlMs);
  }

  async lock(key: string, ttlMs: number): Promise<(() => Promise<void>) | null> {
    const token = randomUUID();
    const lockKey = `lock:${key}`;
    if (!this.setIfAbsent(lockKey, token, ttlMs)) return null;
    return async () => {
      if (this.values.get(lockKey)?.value === token) this.values.delete(lockKey);
    };
  }

  async rateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    const bucket = Math.floor(now / windowMs);
    const bucketKey = `rl:${key}:${windowMs}:${bucket}`;
    const used = this.bucketValue(bucketKey, now);
    if (used >= limit) {
      return { allowed: false, remaining: 0, retryAfterMs: (bucket + 1) * windowMs - now };
    }
    this.counters.set(bucketKey, { value: used + 1, expiresAt: (bucket + 1) * windowMs });
    return { allowed: true, remaining: limit - used - 1, retryAfterMs: 0 };
  }

  async get(key: string): Promise<string | null> {
    const entry = this.values.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.values.delete(key);
      return null;
    }
    return entry.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
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

  private bucketValue(key: string, now: number): number {
    const entry = this.counters.get(key);
    return entry && entry.expiresAt > now ? entry.value : 0;
  }

  private sweep(): void {
    const now = this.now();
    for (const [k, e] of this.values) if (e.expiresAt <= now) this.values.delete(k);
    for (const [k, e] of this.counters) if (e.expiresAt <= now) this.counters.delete(k);
  }
}
