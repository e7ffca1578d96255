import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import { multiRowInsert } from '../storage/multi-row-insert.ts';
import { queryTemplate } from '../storage/precompiled.ts';
import type { DecisionsTable } from '../storage/scoring-schema.ts';
import { PACKED_DICTIONARY } from './packed-row.ts';
import { SEALED_COLUMNS, type SealedColumn } from './packed-seal.mjs';

/** Every column of a decision row, in one fixed order (the object type makes the list complete). */
const DECISION_COLUMN_SET: Record<keyof DecisionsTable, true> = {
  id: true,
  site_id: true,
  workspace_id: true,
  event_type: true,
  account_id: true,
  email: true,
  ip_address: true,
  user_agent: true,
  device_id: true,
  payment_hash: true,
  promo_code: true,
  order_amount: true,
  risk_score: true,
  risk_level: true,
  classification: true,
  action: true,
  signals: true,
  features: true,
  evidence: true,
  response: true,
  ruleset_version: true,
  decision_ms: true,
  label: true,
  labeled_at: true,
  created_at: true,
  cluster_id: true,
  rule_input: true,
  browser_decision_id: true,
  packed: true,
  packed_evidence: true,
};
const DECISION_COLUMNS = Object.keys(DECISION_COLUMN_SET) as Array<keyof DecisionsTable>;

/**
 * The insert of one decision, every column an argument, compiled once by Kysely: the SQL the
 * group commit prepares (decisions/group-commit.ts, on the writer thread for a SQLite file).
 */
export function decisionInsertTemplate(db: Kysely<DB>) {
  return queryTemplate(db, (db, arg: (name: keyof DecisionsTable) => string) =>
    db.insertInto('decisions').values(Object.fromEntries(DECISION_COLUMNS.map((c) => [c, arg(c)])) as never),
  );
}

/**
 * How the SQLite commit seals a pending packed decision (packed-seal.mjs) bound for `template`:
 * the parameter index of each sealed column, and format 2's dictionary.
 */
export function decisionSealing(template: ReturnType<typeof decisionInsertTemplate>) {
  const names = template.bind(Object.fromEntries(DECISION_COLUMNS.map((c) => [c, c])) as never);
  const slots = Object.fromEntries(SEALED_COLUMNS.map((c) => [c, names.indexOf(c)])) as Record<
    SealedColumn,
    number
  >;
  return { slots, dictionary: PACKED_DICTIONARY };
}

/**
 * The PostgreSQL group commit's insert of a batch's decisions: one statement for the whole batch,
 * compiled once per row count (storage/multi-row-insert.ts).
 */
export function decisionRowsInsert(db: Kysely<DB>) {
  return multiRowInsert(db, 'decisions', DECISION_COLUMNS);
}

/**
 * Insert decision rows as they are, in one statement: the fixtures and benchmarks that write
 * recorded decisions straight.
 */
export async function insertDecisionRows(db: Kysely<DB>, rows: readonly DecisionsTable[]): Promise<void> {
  await db.insertInto('decisions').values(rows).execute();
}
