import type { Kysely } from 'kysely';
import { type Dialect, timeType } from './types.ts';

/**
 * Proof-of-work challenges already used, until they expire: with the in-process hot state (the
 * embedded default) the used set would otherwise be lost at a restart, and a proof could be used
 * again (SPEC §5: single use). No foreign key: rows are swept minutes after they expire.
 */
export function usedChallenges(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('used_challenges')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('salt', 'text', (c) => c.notNull())
        .addColumn('expires_at', timeType(dialect), (c) => c.notNull())
        .addPrimaryKeyConstraint('used_challenges_pk', ['site_id', 'salt'])
        .execute();
      await db.schema
        .createIndex('used_challenges_expires')
        .on('used_challenges')
        .column('expires_at')
        .execute();
    },
  };
}
