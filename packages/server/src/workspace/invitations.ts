import { randomUUID } from 'node:crypto';
import type { Role } from '@warden/protocol/permissions';
import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import type { InvitationsTable } from '../storage/invitation-schema.ts';
import { newOpaqueToken, sha256Hex } from './tokens.ts';
import { normaliseEmail } from './users.ts';

/** How long an invitation can be accepted. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

export function invitationView(row: InvitationsTable): InvitationView {
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}

/**
 * A new invitation, and its token (shown once). Earlier pending invitations of the same address
 * to the same workspace are revoked, so one address has at most one live token per workspace.
 */
export async function createInvitation(
  db: Kysely<DB>,
  input: { workspaceId: string; email: string; role: Role; createdBy: string | null },
  now: number,
): Promise<{ invitation: InvitationsTable; token: string }> {
  const token = newOpaqueToken('inv');
  const row: InvitationsTable = {
    id: randomUUID(),
    workspace_id: input.workspaceId,
    email: normaliseEmail(input.email),
    role: input.role,
    token_hash: sha256Hex(token),
    created_by: input.createdBy,
    created_at: now,
    expires_at: now + INVITATION_TTL_MS,
    accepted_at: null,
    accepted_by: null,
    revoked_at: null,
  };
  await db.transaction().execute(async (trx) => {
    await pending(trx, now)
      .where('workspace_id', '=', row.workspace_id)
      .where('email', '=', row.email)
      .execute()
      .then((rows) => revoke(trx, rows, now));
    await trx.insertInto('invitations').values(row).execute();
  });
  return { invitation: row, token };
}

function pending(db: Kysely<DB>, now: number) {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
}

async function revoke(db: Kysely<DB>, rows: InvitationsTable[], now: number): Promise<void> {
  for (const r of rows) {
    await db.updateTable('invitations').set({ revoked_at: now }).where('id', '=', r.id).execute();
  }
}

/** Pending (not accepted, revoked or expired) invitations of a workspace, newest first. */
export async function listPendingInvitations(
  db: Kysely<DB>,
  workspaceId: string,
  now: number,
): Promise<InvitationsTable[]> {
  return pending(db, now).where('workspace_id', '=', workspaceId).orderBy('created_at', 'desc').execute();
}

/** Revoke one pending invitation; false when there is none with that id in the workspace. */
export async function revokeInvitation(
  db: Kysely<DB>,
  workspaceId: string,
  invitationId: string,
  now: number,
): Promise<InvitationsTable | undefined> {
  const row = await pending(db, now)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', invitationId)
    .executeTakeFirst();
  if (row) await revoke(db, [row], now);
  return row;
}

/** The pending invitation a token opens, if any (unknown, used, revoked and expired alike: none). */
export async function findPendingByToken(
  db: Kysely<DB>,
  token: string,
  now: number,
): Promise<InvitationsTable | undefined> {
  return pending(db, now).where('token_hash', '=', sha256Hex(token)).executeTakeFirst();
}

/**
 * Mark the invitation accepted by `userId`, only if it is still pending: false when another
 * request used (or an owner revoked) it meanwhile. Run inside the transaction that adds the member.
 */
export async function markAccepted(
  db: Kysely<DB>,
  invitationId: string,
  userId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ accepted_at: now, accepted_by: userId })
    .where('id', '=', invitationId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
