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
}

/** Records writes in one IMMEDIATE transaction (see decision-commit.mjs). */
export declare function decisionCommit(
  sqlite: SqliteDatabase.Database,
  sql: CommitStatements,
): (writes: BoundWrite[]) => CommitResult;
