import { randomUUID } from 'node:crypto';
import type { Workspace as WorkspaceView } from '@warden/protocol/management';
import type { Plan, Role } from '@warden/protocol/permissions';
import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import type { MembershipsTable, WorkspacesTable } from '../storage/schema.ts';
import type { SiteChanges } from './site-key-cache.ts';

export const PLANS: readonly Plan[] = ['free', 'pro', 'enterprise'];

export interface NewWorkspace {
  name: string;
  plan?: Plan;
  demo?: boolean;
}

export async function createWorkspace(
  db: Kysely<DB>,
  input: NewWorkspace,
  now: number,
): Promise<WorkspacesTable> {
  const row: WorkspacesTable = {
    id: randomUUID(),
    name: input.name,
    plan: input.plan ?? 'free',
    demo: input.demo ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('workspaces').values(row).execute();
  return row;
}

export async function findWorkspace(db: Kysely<DB>, id: string): Promise<WorkspacesTable | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Change the plan; false when the workspace does not exist. */
export async function setPlan(
  db: Kysely<DB>,
  id: string,
  plan: Plan,
  now: number,
  changes: SiteChanges,
): Promise<boolean> {
  const result = await db
    .updateTable('workspaces')
    .set({ plan, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  await changes.changed(db);
  return Number(result.numUpdatedRows) > 0;
}

/** The workspaces a user belongs to (only `scope` for a workspace-scoped session). */
export async function listWorkspacesOf(
  db: Kysely<DB>,
  userId: string,
  scope: string | null,
): Promise<WorkspaceView[]> {
  let query = db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .selectAll('workspaces')
    .select('memberships.role')
    .where('memberships.user_id', '=', userId);
  if (scope !== null) query = query.where('workspaces.id', '=', scope);
  const rows = await query.orderBy('workspaces.created_at').orderBy('workspaces.id').execute();
  return rows.map((row) => workspaceView(row, row.role));
}

export function workspaceView(row: WorkspacesTable, role: Role): WorkspaceView {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    demo: row.demo === 1,
    role,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

// ---- memberships ----

export async function addMembership(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
  role: Role,
  now: number,
): Promise<MembershipsTable> {
  const row: MembershipsTable = { workspace_id: workspaceId, user_id: userId, role, created_at: now };
  await db.insertInto('memberships').values(row).execute();
  return row;
}

export async function findMembership(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
): Promise<MembershipsTable | undefined> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function countOwners(db: Kysely<DB>, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setRole(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
  role: Role,
): Promise<void> {
  await db
    .updateTable('memberships')
    .set({ role })
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
}

export async function removeMembership(db: Kysely<DB>, workspaceId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('memberships')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
}

export interface MemberView {
  userId: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: string;
}

export async function listMembers(db: Kysely<DB>, workspaceId: string): Promise<MemberView[]> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.email', 'users.name', 'memberships.role', 'memberships.created_at'])
    .where('memberships.workspace_id', '=', workspaceId)
    .orderBy('memberships.created_at')
    .orderBy('users.email')
    .execute();
  return rows.map((r) => ({
    userId: r.id,
    email: r.email,
    name: r.name,
    role: r.role,
    joinedAt: new Date(r.created_at).toISOString(),
  }));
}

export async function memberView(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
): Promise<MemberView | undefined> {
  return (await listMembers(db, workspaceId)).find((m) => m.userId === userId);
}

/** The workspace `workspaceId` with `userId`'s role in it, when they are a member. */
export async function workspaceOfMember(db: Kysely<DB>, userId: string, workspaceId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .selectAll('workspaces')
    .select('memberships.role')
    .where('memberships.user_id', '=', userId)
    .where('memberships.workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/** A new workspace with `userId` as its owner, in one transaction. */
export async function createOwnedWorkspace(
  db: Kysely<DB>,
  name: string,
  userId: string,
  now: number,
): Promise<WorkspacesTable> {
  return db.transaction().execute(async (trx) => {
    const row = await createWorkspace(trx, { name }, now);
    await addMembership(trx, row.id, userId, 'owner', now);
    return row;
  });
}
