import type { Kysely } from 'kysely';
import type { Dialect } from './types.ts';

/**
 * Pending deliveries by site: the dispatcher's cancel sweeps (webhook disabled, plan lost) look up
 * a few sites' pending rows instead of walking every pending row of a large backlog.
 */
export function deliverySiteStatus(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('webhook_deliveries_site_status')
        .on('webhook_deliveries')
        .columns(['site_id', 'status'])
        .execute();
    },
  };
}
