import type { Signal } from '@warden/protocol';
import type { Kysely } from 'kysely';
import { UNOBSERVED_WRITER, type WriterMetrics } from '../metrics.ts';
import type { HotStateWrite } from '../state/writes.ts';
import type { Database, DB } from '../storage/db.ts';
import type { IdempotencyKeysTable } from '../storage/scoring-schema.ts';
import type { WebhookDeliveriesTable } from '../storage/webhook-schema.ts';
import type { OutboxSignal } from '../webhooks/outbox.ts';
import { type Committer, type DecisionWrite, kyselyCommitter, sqliteCommitter } from './group-commit.ts';
import type { DecisionRecord } from './packed-row.ts';
import { kyselyOnRunner } from './writer-kysely.ts';
import type { WriterThread } from './writer-thread.ts';

/**
 * Group commit of recorded decisions. Every decision is written with its webhook outbox row and
 * its idempotency key row in one transaction before its request is answered (a decision is never
 * recorded without its delivery, nor the reverse), but the decisions that finish scoring in the
 * same event-loop turn share that transaction: one commit for many decisions instead of one each.
 * A batch that fails is retried one decision per transaction, so one bad row fails only itself.
 *
 * SQLite runs the batch as one better-sqlite3 transaction on prepared statements
 * (decision-commit.mjs): for a database file in the writer thread (decision-writer.worker.mjs), on
 * its own connection, so the inserts run on another core; for ':memory:' on this thread, holding
 * Kysely's connection (so no Kysely transaction is open around it). PostgreSQL runs it as one
 * Kysely transaction of precompiled statements (`kyselyCommitter`).
 */
export class DecisionWriter {
  private queue: Array<{
    write: DecisionWrite;
    resolve: (recorded: boolean) => void;
    reject: (err: unknown) => void;
  }> = [];
  /** When the oldest write of the queue was queued (performance.now()). */
  private queuedSince = 0;
  private flushing: Promise<void> = Promise.resolve();
  private readonly commitBatch: Committer;
  private readonly thread: WriterThread | undefined;
  /**
   * Where other writes that must not wait for the write lock on this thread go (the webhook
   * dispatcher's claims and results): a Kysely on the writer thread's connection for a SQLite
   * file, whose statements run there one by one between group commits; the database's own Kysely
   * elsewhere (PostgreSQL does not block the thread, ':memory:' has a single connection).
   * Statements only: no transactions.
   */
  readonly writes: Kysely<DB>;

  constructor(
    database: Database,
    private readonly outbox: OutboxSignal,
    /** Where commits are made instead (a `serve --workers` worker: the primary's writer). */
    private readonly remote?: RemoteCommit,
    private readonly metrics: WriterMetrics = UNOBSERVED_WRITER,
  ) {
    if (remote) this.commitBatch = () => Promise.reject(new Error('commits are made elsewhere'));
    else if (database.sqlite) {
      const sqlite = sqliteCommitter(database, outbox, metrics);
      this.commitBatch = sqlite.commit;
      this.thread = sqlite.thread;
    } else this.commitBatch = kyselyCommitter(database.db, outbox);
    const thread = this.thread;
    this.writes = thread
      ? kyselyOnRunner(async (sql, parameters) => {
          const result = await thread.run(sql, parameters);
          if (result.ms !== undefined) metrics.writerStatement(result.ms / 1000);
          return result;
        })
      : database.db;
  }

  /** Settles once commits can be sent: the writer thread has opened the file (or failed over). */
  ready(): Promise<void> {
    return this.thread?.ready ?? Promise.resolve();
  }

  /**
   * Resolves true once the decision, its outbox row and its key row are committed; false (nothing
   * written) when the idempotency key was taken by another decision meanwhile.
   */
  write(row: DecisionRecord, key?: IdempotencyKeysTable, signals?: readonly Signal[]): Promise<boolean> {
    if (this.remote) return this.remote(row, key);
    const done = new Promise<boolean>((resolve, reject) =>
      this.queue.push({ write: { row, key, signals }, resolve, reject }),
    );
    // The first write of a turn schedules the flush that takes every write queued until then (no
    // timer): to the writer thread at once, which takes the batches that reach it during a
    // transaction into its next one; elsewhere at once when no commit is under way, else as soon
    // as it is answered.
    if (this.queue.length === 1) {
      this.queuedSince = performance.now();
      setImmediate(() => {
        if (this.thread) void this.flush();
        else this.flushing = this.flushing.then(() => this.flush());
      });
    }
    return done;
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    // Taken now: the next write queued while this batch commits sets `queuedSince` anew.
    const sent = performance.now();
    const waited = sent - this.queuedSince;
    let queued = 0;
    const deliveries: WebhookDeliveriesTable[] = [];
    try {
      const result = await this.commitBatch(batch.map((p) => p.write));
      this.metrics.commitBatch(batch.length, waited / 1000, (performance.now() - sent) / 1000);
      const { thread } = result;
      if (thread) this.metrics.writerThread(thread.queuedMs / 1000, thread.ms / 1000, thread.batches);
      queued = result.queued;
      deliveries.push(...result.deliveries);
      for (const [i, p] of batch.entries()) p.resolve(result.recorded[i]!);
    } catch (err) {
      if (batch.length === 1) batch[0]!.reject(err);
      else {
        for (const p of batch) {
          try {
            const result = await this.commitBatch([p.write]);
            queued += result.queued;
            deliveries.push(...result.deliveries);
            p.resolve(result.recorded[0]!);
          } catch (itemErr) {
            p.reject(itemErr);
          }
        }
      }
    }
    // Committed deliveries go to this process's dispatcher (or wake it); any not known exactly too.
    // In the next turn: the batch's answers are sent first, the webhook requests (signing, sockets)
    // after them, never in their way.
    if (deliveries.length > 0 || queued > deliveries.length)
      setImmediate(() => {
        if (deliveries.length > 0) this.outbox.committed(deliveries);
        if (queued > deliveries.length) this.outbox.queued();
      });
  }
}

/**
 * A decision committed by another process's writer (it answers as `DecisionWriter.write`), with
 * the hot-state writes of its outcome applied there once it is recorded (pipeline/record.ts).
 */
export type RemoteCommit = (
  row: DecisionRecord,
  key: IdempotencyKeysTable | undefined,
  writes?: readonly HotStateWrite[],
) => Promise<boolean>;
