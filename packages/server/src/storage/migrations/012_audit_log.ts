import type { Kysely } from 'kysely';
import { type Dialect, timeType } from './types.ts';

/**
 * The audit log (SPEC §11): who changed rules, lists, members, keys, webhooks and SSO, when, and
 * what (JSON before/after, secrets never stored). Owned by packages/server/src/audit/log.ts. No
 * foreign keys: entries outlive the rules, members and sites they describe.
 */
export function auditLog(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('site_id', 'text')
        .addColumn('actor_user_id', 'text')
        .addColumn('actor_email', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .addColumn('created_at', timeType(dialect), (c) => c.notNull())
        .execute();
      // GET /api/audit pages a workspace's entries newest first by (created_at, id).
      await db.schema
        .createIndex('audit_log_workspace_time')
        .on('audit_log')
        .columns(['workspace_id', 'created_at', 'id'])
        .execute();
    },
  };
}
