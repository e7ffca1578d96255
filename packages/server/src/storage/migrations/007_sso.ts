import type { Kysely } from 'kysely';
import { type Dialect, timeType } from './types.ts';

/** SAML single sign-on: one identity-provider configuration per workspace, and used assertion ids. */
export function sso(dialect: Dialect) {
  const time = timeType(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sso_configs')
        .addColumn('workspace_id', 'text', (c) =>
          c.primaryKey().references('workspaces.id').onDelete('cascade'),
        )
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('idp_entity_id', 'text', (c) => c.notNull())
        .addColumn('sso_url', 'text', (c) => c.notNull())
        .addColumn('idp_certificate', 'text', (c) => c.notNull())
        .addColumn('default_role', 'text', (c) => c.notNull())
        .addColumn('sso_required', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sso_used_assertions')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('assertion_id', 'text', (c) => c.notNull())
        .addColumn('used_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('sso_used_assertions_pk', ['workspace_id', 'assertion_id'])
        .execute();
      await db.schema
        .createIndex('sso_used_assertions_expiry')
        .on('sso_used_assertions')
        .column('expires_at')
        .execute();
    },
  };
}
