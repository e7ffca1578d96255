import { type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from '../storage/db.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long decisions are kept (WARDEN_RETENTION_DAYS: the decision with its features, rule input,
 * answer and label) and their raw evidence (WARDEN_EVIDENCE_RETENTION_DAYS: the normalised
 * fingerprint, environment and behaviour summary), in days; null: for ever.
 */
export interface RetentionSettings {
  decisionDays: number | null;
  evidenceDays: number | null;
}

/** Rows one statement of the sweep changes at most (a few milliseconds of the write lock). */
export const RETENTION_ROWS_PER_STATEMENT = 500;

/**
 * The rows that still hold evidence: packed evidence, or the evidence column of a row recorded
 * before packing. Spelled as migration 023's partial index `decisions_evidence_time` spells it, so
 * that both dialects use the index (only rows within the evidence period are in it).
 */
const HOLDS_EVIDENCE = sql<SqlBool>`(packed_evidence is not null or (packed is null and evidence <> '{}'))`;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface RetentionSweepResult {
  decisionsDeleted: number;
  evidenceDropped: number;
}

/**
 * One incremental round of the retention, oldest rows first, in statements of at most
 * `perStatement` rows with a turn of the event loop between them: drops the evidence of decisions
 * older than the evidence period, then deletes decisions older than the decision period, each chunk
 * after `beforeDelete` forgot what depends on it (the webhook outbox rows of those decisions).
 */
export async function sweepRetention(
  db: Kysely<DB>,
  settings: RetentionSettings,
  now: number,
  beforeDelete: (decisionIds: readonly string[]) => Promise<unknown>,
  perStatement = RETENTION_ROWS_PER_STATEMENT,
  yieldTurn: () => Promise<void> = nextTurn,
): Promise<RetentionSweepResult> {
  const result: RetentionSweepResult = { decisionsDeleted: 0, evidenceDropped: 0 };
  if (settings.evidenceDays !== null) {
    const before = now - settings.evidenceDays * DAY_MS;
    for (;;) {
      const changed = await dropEvidenceChunk(db, before, perStatement);
      result.evidenceDropped += changed;
      if (changed < perStatement) break;
      await yieldTurn();
    }
  }
  if (settings.decisionDays !== null) {
    const before = now - settings.decisionDays * DAY_MS;
    for (;;) {
      const ids = (
        await db
          .selectFrom('decisions')
          .select('id')
          .where('created_at', '<', before)
          .orderBy('created_at')
          .limit(perStatement)
          .execute()
      ).map((r) => r.id);
      if (ids.length === 0) break;
      await beforeDelete(ids);
      const deleted = await db.deleteFrom('decisions').where('id', 'in', ids).executeTakeFirst();
      result.decisionsDeleted += Number(deleted.numDeletedRows);
      if (ids.length < perStatement) break;
      await yieldTurn();
    }
  }
  return result;
}

/** The ids of up to `limit` of the oldest decisions before `before` that still hold evidence. */
export function oldestWithEvidence(db: Kysely<DB>, before: number, limit: number) {
  return db
    .selectFrom('decisions')
    .select('id')
    .where(HOLDS_EVIDENCE)
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit);
}

/** Drops the evidence of up to `limit` of the oldest decisions before `before` that hold some. */
async function dropEvidenceChunk(db: Kysely<DB>, before: number, limit: number): Promise<number> {
  const oldest = oldestWithEvidence(db, before, limit);
  const result = await db
    .updateTable('decisions')
    .set({
      packed_evidence: null,
      evidence: sql<string>`case when packed is null then '{}' else evidence end`,
    })
    .where('id', 'in', oldest)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The oldest decision still kept, for "data goes back to" (null: none). */
export async function oldestDecisionAt(db: Kysely<DB>): Promise<number | null> {
  const row = await db
    .selectFrom('decisions')
    .select('created_at')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.created_at) : null;
}
