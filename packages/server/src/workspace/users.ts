import { randomUUID } from 'node:crypto';
import type { Plan, Role } from '@warden/protocol/permissions';
import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import type { UsersTable } from '../storage/schema.ts';

/** The user object of SPEC §6, as answered by login and GET /api/auth/me. */
export interface UserView {
  id: string;
  email: string;
  name: string;
  createdAt: string;
  memberships: Array<{ workspaceId: string; workspaceName: string; role: Role; plan: Plan }>;
}

/** E-mails are compared case-insensitively: we store them trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Kysely<DB>, email: string): Promise<UsersTable | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();
}

export async function findUserById(db: Kysely<DB>, id: string): Promise<UsersTable | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewUser {
  email: string;
  /** Display name; defaults to the part of the e-mail before the @. */
  name?: string | undefined;
  /** Already hashed with hashPassword(); null for SSO-only users. */
  passwordHash: string | null;
}

export async function createUser(db: Kysely<DB>, input: NewUser, now: number): Promise<UsersTable> {
  const email = normaliseEmail(input.email);
  const row: UsersTable = {
    id: randomUUID(),
    email,
    name: input.name?.trim() || email.split('@')[0] || email,
    password_hash: input.passwordHash,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

/**
 * Create the user; when another request created the same e-mail meanwhile (the unique index
 * refuses the insert), answer that one instead (`created: false`). Throws when neither exists.
 */
export async function createUserOrReread(
  db: Kysely<DB>,
  input: NewUser,
  now: number,
): Promise<{ user: UsersTable; created: boolean }> {
  try {
    return { user: await createUser(db, input, now), created: true };
  } catch (err) {
    const again = await findUserByEmail(db, input.email);
    if (!again) throw err;
    return { user: again, created: false };
  }
}

/**
 * The user with their memberships. A workspace-scoped (SSO) session only sees the membership of
 * its own workspace, so it cannot even enumerate the user's other tenants.
 */
export async function userView(
  db: Kysely<DB>,
  user: UsersTable,
  workspaceScope: string | null = null,
): Promise<UserView> {
  let query = db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .select([
      'workspaces.id as workspaceId',
      'workspaces.name as workspaceName',
      'memberships.role as role',
      'workspaces.plan as plan',
    ])
    .where('memberships.user_id', '=', user.id);
  if (workspaceScope !== null) query = query.where('workspaces.id', '=', workspaceScope);
  const memberships = await query.orderBy('workspaces.created_at').orderBy('workspaces.id').execute();
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    createdAt: new Date(user.created_at).toISOString(),
    memberships,
  };
}
