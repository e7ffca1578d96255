import { type Kysely, sql } from 'kysely';
import type { Dialect } from './types.ts';

/**
 * The delivery outbox indexes only what its queries read, so that each delivery costs the decision
 * writer thread fewer index writes (bench/writer.ts --deliver):
 * - `webhook_deliveries_decision` goes: no query looks deliveries up by decision.
 * - The claim's (status, next_attempt_at) and the cancel sweeps' (site_id, status) become partial
 *   indexes of pending rows only (`webhook_deliveries_pending_due`, `webhook_deliveries_site_pending`):
 *   a delivery that succeeds leaves them (two deletions) instead of moving to a `succeeded` entry
 *   in each (two deletions and two insertions), and they stay as small as the backlog.
 * Their queries name `status = 'pending'` as a literal (webhooks/delivery-store.ts): a partial
 * index serves only a query whose WHERE contains its condition as written.
 */
export function pendingDeliveryIndexes(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('webhook_deliveries_decision').execute();
      await db.schema.dropIndex('webhook_deliveries_due').execute();
      await db.schema.dropIndex('webhook_deliveries_site_status').execute();
      await sql`create index webhook_deliveries_pending_due on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(
        db,
      );
      await sql`create index webhook_deliveries_site_pending on webhook_deliveries (site_id) where status = 'pending'`.execute(
        db,
      );
    },
  };
}
