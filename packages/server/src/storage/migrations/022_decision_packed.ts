import type { Kysely } from 'kysely';
import type { Dialect } from './types.ts';

/**
 * Packed decision rows (decisions/packed-row.ts): `packed` holds a decision's features, rule input
 * and the answer's parts no column holds, `packed_evidence` its evidence, both deflated JSON. Rows
 * recorded before keep their JSON columns and are read as they are (`packed` null); the retention
 * sweep removes them in time.
 */
export function decisionPacked(dialect: Dialect) {
  const binary = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('decisions').addColumn('packed', binary).execute();
      await db.schema.alterTable('decisions').addColumn('packed_evidence', binary).execute();
    },
  };
}
