import type { Role } from '@warden/protocol/permissions';
import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import type { UsersTable } from '../storage/schema.ts';
import { createUserOrReread, findUserByEmail } from '../workspace/users.ts';
import { addMembership, findMembership } from '../workspace/workspaces.ts';

export interface ProvisionedUser {
  user: UsersTable;
  /** The account was created now (it has no password: SSO only). */
  created: boolean;
  /** The membership was added now, with the workspace's default role. */
  joined: boolean;
}

/**
 * Just-in-time provisioning: the account of `email` (created without a password when new) and
 * its membership of the workspace (added with `defaultRole` when missing). An existing member
 * keeps their role. Concurrent first sign-ins are settled by the unique indexes: we re-read.
 */
export async function provisionSsoUser(
  db: Kysely<DB>,
  workspaceId: string,
  email: string,
  defaultRole: Role,
  now: number,
  name?: string | undefined,
): Promise<ProvisionedUser> {
  const existing = await findUserByEmail(db, email);
  const { user, created } = existing
    ? { user: existing, created: false }
    : await createUserOrReread(db, { email, name, passwordHash: null }, now);
  let joined = false;
  if (!(await findMembership(db, workspaceId, user.id))) {
    try {
      await addMembership(db, workspaceId, user.id, defaultRole, now);
      joined = true;
    } catch (err) {
      if (!(await findMembership(db, workspaceId, user.id))) throw err;
    }
  }
  return { user, created, joined };
}
