import type { Kysely } from 'kysely';
import { type Dialect, timeType } from './types.ts';

/** Recorded decisions and idempotency records (scoring API). */
export function decisions(dialect: Dialect) {
  const time = timeType(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('decisions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('ip_address', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text', (c) => c.notNull())
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('payment_hash', 'text')
        .addColumn('promo_code', 'text')
        .addColumn('order_amount', 'double precision')
        .addColumn('risk_score', 'integer', (c) => c.notNull())
        .addColumn('risk_level', 'text', (c) => c.notNull())
        .addColumn('classification', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('signals', 'text', (c) => c.notNull())
        .addColumn('features', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('evidence', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('ruleset_version', 'text', (c) => c.notNull())
        .addColumn('decision_ms', 'double precision', (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('labeled_at', time)
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      // The decisions list, stats and backtests page through a site's decisions by (created_at, id).
      await db.schema
        .createIndex('decisions_site_time_id')
        .on('decisions')
        .columns(['site_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('decisions_site_account')
        .on('decisions')
        .columns(['site_id', 'account_id'])
        .execute();
      await db.schema
        .createIndex('decisions_site_ip')
        .on('decisions')
        .columns(['site_id', 'ip_address'])
        .execute();
      await db.schema
        .createIndex('decisions_site_device')
        .on('decisions')
        .columns(['site_id', 'device_id'])
        .execute();
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('body_hash', 'text', (c) => c.notNull())
        .addColumn('decision_id', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['site_id', 'route', 'key'])
        .execute();
      // The 24-hour retention sweep deletes by age.
      await db.schema
        .createIndex('idempotency_keys_created')
        .on('idempotency_keys')
        .column('created_at')
        .execute();
    },
  };
}
