import type { Role } from '@warden/protocol/permissions';
import type { Kysely } from 'kysely';
import { ApiError } from '../errors.ts';
import type { Database, DB } from '../storage/db.ts';
import { countOwners, findMembership, removeMembership, setRole } from './workspaces.ts';

/** The member's e-mail, for the audit log (read before the change's transaction). */
export async function memberEmail(db: Kysely<DB>, userId: string): Promise<string | null> {
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  return user?.email ?? null;
}

/**
 * Demoting or removing `userId` must leave the workspace at least one owner (409 conflict).
 * Checked inside the writing transaction, so two owners demoting each other at once cannot both win.
 */
export async function changeMembership(
  database: Database,
  workspaceId: string,
  userId: string,
  change: { role: Role } | 'remove',
  audit: (trx: Kysely<DB>, before: Role) => Promise<void>,
): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    const membership = await findMembership(trx, workspaceId, userId);
    if (!membership) throw new ApiError('not_found', 'Member not found.');
    const staysOwner = change !== 'remove' && change.role === 'owner';
    if (membership.role === 'owner' && !staysOwner && (await countOwners(trx, workspaceId)) <= 1) {
      throw new ApiError('conflict', 'A workspace needs at least one owner; appoint another owner first.');
    }
    if (change === 'remove') await removeMembership(trx, workspaceId, userId);
    else await setRole(trx, workspaceId, userId, change.role);
    await audit(trx, membership.role);
  });
}
