import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { sweepUsedChallenges } from '../challenge/index.ts';
import type { DB } from '../storage/db.ts';
import { sweepIdempotencyKeys } from './idempotency.ts';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** Scoring records kept only until they expire, and what forgets them. */
const SWEEPS = [
  ['idempotency keys', sweepIdempotencyKeys],
  ['used challenges', sweepUsedChallenges],
] as const;

/**
 * Forgets expired scoring records every 10 minutes (one per process, services.ts; started by the
 * scoring routes, stopped when the app closes). Its statements run where `writes` says: on a SQLite
 * file, the decision writer thread (`DecisionWriter.writes`), between group commits, so that the
 * main thread neither runs the deletes nor waits for the write lock while a commit holds it.
 */
export class ExpirySweeper {
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: { writes: () => Kysely<DB>; logger: Logger; now: () => number }) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One round of every sweep (failures are logged, never thrown). */
  async sweep(): Promise<void> {
    const { writes, logger, now } = this.deps;
    const db = writes();
    await Promise.all(
      SWEEPS.map(([records, sweep]) =>
        sweep(db, now()).catch((err: unknown) =>
          logger.warn({ err, records }, 'sweep of expired scoring records failed'),
        ),
      ),
    );
  }
}
