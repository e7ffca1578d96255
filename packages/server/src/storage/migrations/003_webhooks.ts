import type { Kysely } from 'kysely';
import { type Dialect, timeType } from './types.ts';

/** Webhook endpoints (one per site) and the delivery outbox. */
export function webhooks(dialect: Dialect) {
  const time = timeType(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('webhooks')
        .addColumn('site_id', 'text', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('decision_id', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('last_response_body', 'text')
        .addColumn('next_attempt_at', time, (c) => c.notNull())
        .addColumn('lease_until', time)
        .addColumn('lease_owner', 'text')
        .addColumn('decision_created_at', time, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      // The dispatcher's claim scans pending rows by due time.
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_site_time')
        .on('webhook_deliveries')
        .columns(['site_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_decision')
        .on('webhook_deliveries')
        .column('decision_id')
        .execute();
    },
  };
}
