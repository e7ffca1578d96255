import type { Kysely } from 'kysely';
import { type Dialect, timeType } from './types.ts';

/**
 * Members join by invitation (SPEC §11): an owner invites an e-mail address with a role; whoever
 * holds the single-use token and proves the address's account (or creates it) becomes a member.
 * Owned by workspace/invitations.ts.
 */
export function invitations(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('invitations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_by', 'text')
        .addColumn('created_at', timeType(dialect), (c) => c.notNull())
        .addColumn('expires_at', timeType(dialect), (c) => c.notNull())
        .addColumn('accepted_at', timeType(dialect))
        .addColumn('accepted_by', 'text')
        .addColumn('revoked_at', timeType(dialect))
        .execute();
      await db.schema
        .createIndex('invitations_workspace_email')
        .on('invitations')
        .columns(['workspace_id', 'email'])
        .execute();
    },
  };
}
