import type { Kysely } from 'kysely';
import type { DB } from './db.ts';

/** SQLite's "database or disk is full" (a full disk, or `max_page_count` reached). */
const SQLITE_FULL = 'SQLITE_FULL';
/** PostgreSQL's `disk_full` condition (class 53, insufficient resources). */
const PG_DISK_FULL = '53100';
/**
 * The same, by message, for an error that crossed a process boundary without its code (a
 * `serve --workers` worker learns of its commit's failure from the primary as text).
 */
const FULL_MESSAGE = /database or disk is full|No space left on device/;
/** What the probe writes: enough to need a new page (SQLite's default page is 4 KiB). */
const PROBE_BYTES = 8192;

/** Whether `err` (or an error it wraps) is the database refusing a write for want of space. */
export function isStorageFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === SQLITE_FULL || code === PG_DISK_FULL) return true;
    if (e instanceof Error && FULL_MESSAGE.test(e.message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether the database has room for writes, as the writes found it. A write that fails for want of
 * space (`isStorageFull`) marks it full: /readyz answers 503 and every write answers 503
 * `unavailable` (the transaction rolled back, nothing half-written). While full, each /readyz
 * probes with a real write (a row of the `storage_probe` table, migration 024, written then
 * deleted); the first that succeeds, or any write that succeeds, marks it writable again.
 */
export class StorageSpace {
  private fullSince: number | null = null;
  private reason = '';

  constructor(private readonly now: () => number = Date.now) {}

  get full(): boolean {
    return this.fullSince !== null;
  }

  markFull(err: unknown): void {
    this.fullSince ??= this.now();
    this.reason = err instanceof Error ? err.message : String(err);
  }

  markWritable(): void {
    this.fullSince = null;
  }

  /** The readiness check: `ok`, or why not (after probing again when it was full). */
  async check(db: Kysely<DB>): Promise<string> {
    if (this.fullSince === null) return 'ok';
    try {
      await db
        .insertInto('storage_probe')
        .values({ id: 1, filler: 'x'.repeat(PROBE_BYTES) })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      await db.deleteFrom('storage_probe').execute();
      this.markWritable();
      return 'ok';
    } catch (err) {
      if (!isStorageFull(err)) throw err;
      this.markFull(err);
      return `full since ${new Date(this.fullSince).toISOString()}: ${this.reason}`;
    }
  }
}
