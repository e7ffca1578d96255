import type SqliteDatabase from 'better-sqlite3';

/** The SQL of each statement of the commit, compiled by Kysely (decision-writer.ts). */
export interface CommitStatements {
  takeKey: string;
  insertDecision: string;
  webhookActive: string;
  insertDelivery: string;
}

/** One decision to record, every statement's parameters bound. */
export interface BoundWrite {
  /** The idempotency key insert, when the request had a key. */
  key: unknown[] | null;
  decision: unknown[];
  siteId: string;
  /** The site's webhook query: a row when its webhook is on and its plan allows webhooks. */
  webhookActive: unknown[];
  /** The outbox insert when the webhook was on at binding (null when off); run only if it is on. */
  delivery: unknown[] | null;
}

export interface CommitResult {
  recorded: boolean[];
  queued: number;
  /**
   * The writer thread's view (decision-writer.worker.mjs), when it committed: ms from sending to
   * the start of the transaction that took the batch, that transaction's ms, and how many batches
   * it took (those that reached the thread while the one before it ran).
   */
  thread?: { queuedMs: number; ms: number; batches: number };
}

/** Records writes in one IMMEDIATE transaction (see decision-commit.mjs). */
export declare function decisionCommit(
  sqlite: SqliteDatabase.Database,
  sql: CommitStatements,
): (writes: BoundWrite[]) => CommitResult;

/** A batch's answer in a group commit: its result, or why it failed (nothing of it written). */
export type BatchAnswer = CommitResult | { error: string; code: string | undefined };

/** Records batches in one IMMEDIATE transaction, each on its own should that fail (see decision-commit.mjs). */
export declare function groupCommit(
  sqlite: SqliteDatabase.Database,
  sql: CommitStatements,
): (batches: BoundWrite[][]) => BatchAnswer[];
