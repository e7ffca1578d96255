import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { sweepUsedChallenges } from '../challenge/index.ts';
import { sweepIdempotencyKeys } from '../decisions/key-queries.ts';
import { type RetentionSettings, sweepRetention } from '../decisions/retention.ts';
import type { DB } from '../storage/db.ts';
import { deleteDeliveriesOfDecisions } from '../webhooks/outbox.ts';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
type Sweep = (db: Kysely<DB>, now: number) => Promise<unknown>;

/**
 * Forgets expired scoring records every 10 minutes (one per process, services.ts; started by the
 * scoring routes, stopped when the app closes): idempotency keys and used challenges past their
 * life, and decisions and their evidence past the retention (decisions/retention.ts), each in
 * small chunks that leave the event loop and the write lock to scoring between them. Its statements
 * run where `writes` says: on a SQLite file, the decision writer thread (`DecisionWriter.writes`),
 * between group commits, so that the main thread neither runs the deletes nor waits for the write
 * lock while a commit holds it.
 */
export class ExpirySweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly sweeps: ReadonlyArray<readonly [string, Sweep]>;

  constructor(
    private readonly deps: {
      writes: () => Kysely<DB>;
      logger: Logger;
      now: () => number;
      retention: RetentionSettings;
    },
  ) {
    this.sweeps = [
      ['idempotency keys', sweepIdempotencyKeys],
      ['used challenges', sweepUsedChallenges],
      [
        'decisions past the retention',
        (db, now) => sweepRetention(db, deps.retention, now, (ids) => deleteDeliveriesOfDecisions(db, ids)),
      ],
    ];
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * One round of every sweep (failures are logged, never thrown). A round still running when the
   * next is due (a first retention round over a large backlog) is left to finish: that one is skipped.
   */
  async sweep(): Promise<void> {
    if (this.running) return this.running;
    const { writes, logger, now } = this.deps;
    const db = writes();
    this.running = Promise.all(
      this.sweeps.map(([records, sweep]) =>
        sweep(db, now()).catch((err: unknown) =>
          logger.warn({ err, records }, 'sweep of expired scoring records failed'),
        ),
      ),
    ).then(() => {
      this.running = null;
    });
    return this.running;
  }
}
