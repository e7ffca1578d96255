import { type Kysely, sql } from 'kysely';
import type { Dialect } from './types.ts';

/**
 * The browser decision a backend `/verify` decision verified (`browser_decision_id`: the latest
 * browser decision of its token, `features.browser_session.latest`), null otherwise. One protected
 * submit records both; GET /api/stats counts it once (the `/verify`) by leaving out browser
 * decisions a later one names. Partial index: only linked decisions carry a value.
 */
export function decisionLink(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('decisions').addColumn('browser_decision_id', 'text').execute();
      await sql`create index decisions_browser_decision on decisions (browser_decision_id) where browser_decision_id is not null`.execute(
        db,
      );
    },
  };
}
