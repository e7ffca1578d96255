import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import { completeSuccesses } from './delivery-store.ts';

interface Pending {
  deliveryId: string;
  resolve: (recorded: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Successful attempts that finish close together are written with one UPDATE per distinct
 * (status code, response body) instead of one per delivery: at thousands of deliveries per second
 * the database round trips, not HTTP, are the bottleneck.
 */
export class SuccessBatcher {
  private groups = new Map<string, { statusCode: number; body: string | null; items: Pending[] }>();
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly workerId: string,
    private readonly now: () => number,
  ) {}

  /** Resolves true when the success was recorded (false: the lease was lost or it was cancelled). */
  add(deliveryId: string, statusCode: number, body: string | null): Promise<boolean> {
    const key = `${statusCode}\u0000${body ?? '\u0001'}`;
    let group = this.groups.get(key);
    if (!group) {
      group = { statusCode, body, items: [] };
      this.groups.set(key, group);
    }
    const promise = new Promise<boolean>((resolve, reject) =>
      group.items.push({ deliveryId, resolve, reject }),
    );
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.flushing = this.flushing.then(() => this.flush());
      });
    }
    return promise;
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const groups = [...this.groups.values()];
    this.groups = new Map();
    for (const group of groups) {
      try {
        const ids = group.items.map((i) => i.deliveryId);
        const recorded = await completeSuccesses(
          this.db,
          this.workerId,
          ids,
          group.statusCode,
          group.body,
          this.now(),
        );
        for (const item of group.items) item.resolve(recorded.has(item.deliveryId));
      } catch (err) {
        for (const item of group.items) item.reject(err);
      }
    }
  }

  /** Wait for everything queued so far to be written. */
  async drain(): Promise<void> {
    while (this.scheduled || this.groups.size > 0) await new Promise((r) => setImmediate(r));
    await this.flushing;
  }
}
