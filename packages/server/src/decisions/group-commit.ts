import type { Signal } from '@warden/protocol';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { WriterMetrics } from '../metrics.ts';
import type { Database, DB } from '../storage/db.ts';
import { multiRowInsert, multiRowStatement } from '../storage/multi-row-insert.ts';
import { queryTemplate } from '../storage/precompiled.ts';
import type { IdempotencyKeysTable } from '../storage/scoring-schema.ts';
import { WalCheckpointer } from '../storage/wal-checkpointer.ts';
import type { WebhookDeliveriesTable } from '../storage/webhook-schema.ts';
import {
  deliveryRow,
  type OutboxSignal,
  webhookActiveQuery,
  webhooksActiveAmongQuery,
} from '../webhooks/outbox.ts';
import {
  type BoundWrite,
  type CommitResult,
  type CommitStatements,
  decisionCommit,
} from './decision-commit.mjs';
import { decisionInsertTemplate, decisionRowsInsert, decisionSealing } from './decision-insert.ts';
import { IDEMPOTENCY_RETENTION_MS, keyFreeBefore, takeKeyQuery, takeKeysQuery } from './key-queries.ts';
import { type DecisionRecord, sealedDecision } from './packed-row.ts';
import { WebhookStates } from './webhook-states.ts';
import { type BoundCommitter, type StatementRunner, WriterThread } from './writer-thread.ts';

/*
 * The group commit's committers: how one batch of decisions is bound, sealed and committed with
 * its outbox and key rows, on SQLite (here or in the writer thread) or PostgreSQL. The queue that
 * gathers the batches and answers their writes is `DecisionWriter` (decision-writer.ts).
 */

/** A decision to record, with the idempotency key it completes (if the request had one). */
export interface DecisionWrite {
  /** Its packed body pending: sealed by the commit (decisions/packed-seal.mjs). */
  row: DecisionRecord;
  key?: IdempotencyKeysTable | undefined;
  /** The array `row.signals` was serialised from, when the caller has it (webhook payload). */
  signals?: readonly Signal[] | undefined;
}

/**
 * Per write: true when recorded, false when its idempotency key was already taken (nothing written);
 * `deliveries`: the outbox rows committed, when known exactly (a webhook turned off between binding
 * and commit leaves `queued` larger: those rows are found by the dispatcher's claim instead).
 */
export type Committer = (
  writes: DecisionWrite[],
) => Promise<CommitResult & { deliveries: WebhookDeliveriesTable[] }>;

const DELIVERY_COLUMN_SET: Record<keyof WebhookDeliveriesTable, true> = {
  id: true,
  site_id: true,
  decision_id: true,
  payload: true,
  status: true,
  attempts: true,
  last_status_code: true,
  last_error: true,
  last_response_body: true,
  next_attempt_at: true,
  lease_until: true,
  lease_owner: true,
  decision_created_at: true,
  created_at: true,
  updated_at: true,
};
const DELIVERY_COLUMNS = Object.keys(DELIVERY_COLUMN_SET) as Array<keyof WebhookDeliveriesTable>;

const KEY_COLUMN_SET: Record<keyof IdempotencyKeysTable, true> = {
  site_id: true,
  route: true,
  key: true,
  body_hash: true,
  decision_id: true,
  created_at: true,
};
const KEY_COLUMNS = Object.keys(KEY_COLUMN_SET) as Array<keyof IdempotencyKeysTable>;

/** An insert of every column of a delivery, compiled once by Kysely, each column an argument. */
function deliveryInsertTemplate(db: Kysely<DB>) {
  return queryTemplate(db, (db, arg: (name: keyof WebhookDeliveriesTable) => string) =>
    db
      .insertInto('webhook_deliveries')
      .values(Object.fromEntries(DELIVERY_COLUMNS.map((c) => [c, arg(c)])) as never),
  );
}

/** The very key insert the decision log defines (decisions/key-queries.ts), compiled once, each column an argument. */
function takeKeyTemplate(db: Kysely<DB>) {
  return queryTemplate(db, (db, arg: (name: keyof IdempotencyKeysTable | 'freeBefore') => string) =>
    takeKeyQuery(
      db,
      {
        site_id: arg('site_id'),
        route: arg('route'),
        key: arg('key'),
        body_hash: arg('body_hash'),
        decision_id: arg('decision_id'),
        created_at: arg('created_at') as unknown as number,
      },
      arg('freeBefore') as unknown as number,
    ),
  );
}

/**
 * The commit's statements compiled by Kysely, and the binding of a batch's parameters. The outbox
 * row is built only for sites whose webhook is on when the batch is bound (as last read, at most a
 * second ago: `WebhookStates`); the commit checks again
 * inside its transaction and refuses a batch whose webhook has been turned on since
 * (`WEBHOOK_TURNED_ON`), which is then bound again, with its deliveries.
 */
function commitStatements(database: Database, outbox: OutboxSignal) {
  const { db } = database;
  const decisionInsert = decisionInsertTemplate(db);
  const deliveryInsert = deliveryInsertTemplate(db);
  const webhookActive = queryTemplate(db, (db, arg: (name: 'siteId') => string) =>
    webhookActiveQuery(db, arg('siteId')),
  );
  const takeKey = takeKeyTemplate(db);
  const sql: CommitStatements = {
    takeKey: takeKey.compiled.sql,
    insertDecision: decisionInsert.compiled.sql,
    webhookActive: webhookActive.compiled.sql,
    insertDelivery: deliveryInsert.compiled.sql,
  };
  const sealing = decisionSealing(decisionInsert);
  const webhookOnNow = database.sqlite!.prepare(sql.webhookActive);
  const webhooks = new WebhookStates(
    (siteId) => webhookOnNow.get(webhookActive.bind({ siteId })) !== undefined,
  );
  /**
   * The writes bound, and per write the outbox row bound with it (null: none); `fresh`: the
   * webhook states read again, not remembered.
   */
  const bindAll = (writes: DecisionWrite[], fresh = false) => {
    const now = Date.now();
    const lease = outbox.leaseForNew(now);
    const deliveries: Array<WebhookDeliveriesTable | null> = [];
    // Per site of the batch: its webhook query's parameters, and whether the webhook is on now.
    const sites = new Map<string, { params: unknown[]; on: boolean }>();
    const bound = writes.map(({ row, key, signals }): BoundWrite => {
      const siteId = row.site_id;
      let site = sites.get(siteId);
      if (!site) {
        site = { params: webhookActive.bind({ siteId }), on: webhooks.on(siteId, fresh) };
        sites.set(siteId, site);
      }
      const delivery = site.on ? deliveryRow(row, now, signals, lease) : null;
      deliveries.push(delivery);
      return {
        key: key ? takeKey.bind({ ...key, freeBefore: keyFreeBefore(key.created_at) }) : null,
        decision: decisionInsert.bind({
          ...row,
          cluster_id: row.cluster_id ?? null,
          rule_input: row.rule_input ?? null,
          browser_decision_id: row.browser_decision_id ?? null,
          packed: row.packed ?? null,
          packed_evidence: row.packed_evidence ?? null,
        }),
        siteId,
        webhookActive: site.params,
        delivery: delivery ? deliveryInsert.bind(delivery) : null,
      };
    });
    return { bound, deliveries };
  };
  return { sql, sealing, bindAll };
}

export function sqliteCommitter(
  database: Database,
  outbox: OutboxSignal,
  metrics: WriterMetrics,
): { commit: Committer; thread?: WriterThread } {
  const { sql, sealing, bindAll } = commitStatements(database, outbox);
  let onThisThread: ((writes: BoundWrite[]) => CommitResult) | undefined;
  // Holding Kysely's single SQLite connection keeps its transactions out of ours.
  const here: BoundCommitter = (writes) => {
    onThisThread ??= decisionCommit(database.sqlite!, sql, sealing);
    const commit = onThisThread;
    return database.db.connection().execute(async () => commit(writes));
  };
  const bindAndCommit = async (commit: BoundCommitter, writes: DecisionWrite[], fresh = false) => {
    const { bound, deliveries } = bindAll(writes, fresh);
    const result = await commit(bound);
    const candidates = deliveries.filter(
      (d, i): d is WebhookDeliveriesTable => d !== null && result.recorded[i]!,
    );
    // Every recorded write's outbox row was inserted unless a webhook was turned off meanwhile.
    return { ...result, deliveries: candidates.length === result.queued ? candidates : [] };
  };
  // A webhook turned on after binding: bind the batch again, with its deliveries.
  const rebinding =
    (commit: BoundCommitter): Committer =>
    async (writes) => {
      try {
        return await bindAndCommit(commit, writes);
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'WEBHOOK_TURNED_ON') throw err;
        return bindAndCommit(commit, writes, true);
      }
    };
  if (!database.sqliteFile) return { commit: rebinding(here) };
  const runHere: StatementRunner = async (sql, parameters) => {
    const result = await database.db.executeQuery(CompiledQuery.raw(sql, [...parameters]));
    return {
      rows: result.rows,
      ...(result.numAffectedRows === undefined ? {} : { changes: Number(result.numAffectedRows) }),
    };
  };
  const thread = new WriterThread(database.sqliteFile, sql, sealing, { commit: here, run: runHere });
  const checkpointer = new WalCheckpointer(
    database.sqliteFile,
    (round) => metrics.checkpoint(round.seconds),
    (message) => process.emitWarning(message),
  );
  database.onClose(() => Promise.all([thread.close(), checkpointer.close()]).then(() => undefined));
  return { commit: rebinding((writes) => thread.commit(writes)), thread };
}

/**
 * PostgreSQL: per batch one transaction of at most four statements whatever its size: one
 * multi-row upsert of its idempotency keys (one per key when two of the batch share a key), one
 * multi-row insert of its decisions, one query of which of its sites have their webhook on, one
 * multi-row insert of their deliveries; each compiled once (storage/precompiled.ts,
 * storage/multi-row-insert.ts).
 */
export function kyselyCommitter(db: Kysely<DB>, outbox: OutboxSignal): Committer {
  const takeKey = takeKeyTemplate(db);
  const takeKeys = multiRowStatement(db, KEY_COLUMNS, (db, rows) =>
    takeKeysQuery(db, rows as unknown as IdempotencyKeysTable[], IDEMPOTENCY_RETENTION_MS),
  );
  const webhooksActive = queryTemplate(db, (db, arg: (name: 'siteIds') => string) =>
    webhooksActiveAmongQuery(db, arg('siteIds')),
  );
  const insertDecisions = decisionRowsInsert(db);
  const insertDeliveries = multiRowInsert(db, 'webhook_deliveries', DELIVERY_COLUMNS);
  /** Per write: false when its key could not be taken (takeKeyQuery's rule), true otherwise. */
  const takeKeysOf = async (trx: Transaction<DB>, writes: DecisionWrite[]): Promise<boolean[]> => {
    const keys = writes.flatMap((w) => (w.key ? [w.key] : []));
    if (keys.length === 0) return writes.map(() => true);
    if (new Set(keys.map((k) => `${k.site_id}\u0000${k.route}\u0000${k.key}`)).size === keys.length) {
      const taken = new Set<string>();
      for (const statement of takeKeys(keys))
        for (const row of (await trx.executeQuery(statement)).rows) taken.add(row.decision_id);
      return writes.map((w) => !w.key || taken.has(w.key.decision_id));
    }
    const recorded: boolean[] = [];
    for (const { key } of writes) {
      const taken = key
        ? await trx.executeQuery({
            ...takeKey.compiled,
            parameters: takeKey.bind({ ...key, freeBefore: keyFreeBefore(key.created_at) }),
          })
        : undefined;
      recorded.push(!taken || Number(taken.numAffectedRows ?? 0) > 0);
    }
    return recorded;
  };
  return (writes) =>
    db.transaction().execute(async (trx) => {
      const now = Date.now();
      const recorded = await takeKeysOf(trx, writes);
      const kept = writes.filter((_, i) => recorded[i]);
      if (kept.length === 0) return { recorded, queued: 0, deliveries: [] };
      // PostgreSQL has no writer thread: the rows are sealed (deflated) here, at commit.
      for (const statement of insertDecisions(kept.map((w) => sealedDecision(w.row))))
        await trx.executeQuery(statement);
      const rows = kept.map((w) => w.row);
      const siteIds = [...new Set(rows.map((r) => r.site_id))];
      const active = new Set(
        (
          await trx.executeQuery<{ site_id: string }>({
            ...webhooksActive.compiled,
            parameters: webhooksActive.bind({ siteIds }),
          })
        ).rows.map((r) => r.site_id),
      );
      const lease = outbox.leaseForNew(now);
      const deliveries = kept
        .filter((w) => active.has(w.row.site_id))
        .map((w) => deliveryRow(w.row, now, w.signals, lease));
      for (const statement of insertDeliveries(deliveries)) await trx.executeQuery(statement);
      return { recorded, queued: deliveries.length, deliveries };
    });
}
