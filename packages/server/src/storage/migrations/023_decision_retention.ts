import { type Kysely, sql } from 'kysely';
import type { Dialect } from './types.ts';

/**
 * Indexes of the retention sweep (decisions/retention.ts): decisions by age, to delete the oldest
 * past WARDEN_RETENTION_DAYS; and, partial, the decisions that still hold evidence by age, to drop
 * the evidence past WARDEN_EVIDENCE_RETENTION_DAYS. Only rows within the evidence period stay in
 * the second, so each round finds its work without scanning the rows already done.
 */
export function decisionRetention(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('decisions_created').on('decisions').column('created_at').execute();
      await sql`create index decisions_evidence_time on decisions (created_at) where (packed_evidence is not null or (packed is null and evidence <> '{}'))`.execute(
        db,
      );
    },
  };
}
