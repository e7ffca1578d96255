import type { Role } from '@warden/protocol/permissions';
import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/log.ts';
import { ApiError } from '../errors.ts';
import type { DB } from '../storage/db.ts';
import type { InvitationsTable } from '../storage/invitation-schema.ts';
import { invitationView, markAccepted } from './invitations.ts';
import { createUser } from './users.ts';
import { addMembership, findMembership } from './workspaces.ts';

/** Answered when a token is not (or no longer) pending. */
export const INVITATION_GONE = 'The invitation is unknown, already used, revoked or expired.';

/** The name of the workspace an invitation opens (shown before it is accepted). */
export async function invitedWorkspaceName(db: Kysely<DB>, invitation: InvitationsTable): Promise<string> {
  const workspace = await db
    .selectFrom('workspaces')
    .select('name')
    .where('id', '=', invitation.workspace_id)
    .executeTakeFirstOrThrow();
  return workspace.name;
}

/**
 * Who accepts: an account that proved itself (signed in, or by its password), or a new account to
 * create with this password hash and optional display name.
 */
export type AcceptingAccount =
  | { existing: { id: string; email: string } }
  | { existing: null; passwordHash: string; name?: string | undefined };

/**
 * Accept a pending invitation in one transaction: create the account if it is new, mark the
 * invitation used, add the membership (unless there is one) and record `member.add` with the new
 * member as actor. A refused accept leaves nothing behind, no account either. Answers the user id;
 * 404 when another request used or revoked the invitation meanwhile, 409 when the address got an
 * account meanwhile.
 */
export async function acceptInvitation(
  db: Kysely<DB>,
  invitation: InvitationsTable,
  account: AcceptingAccount,
  now: number,
): Promise<string> {
  const role: Role = invitationView(invitation).role;
  return db.transaction().execute(async (trx) => {
    const id = account.existing
      ? account.existing.id
      : (
          await createUser(
            trx,
            { email: invitation.email, name: account.name, passwordHash: account.passwordHash },
            now,
          ).catch(() => {
            throw new ApiError(
              'conflict',
              'The account was created meanwhile; accept again with its password.',
            );
          })
        ).id;
    if (!(await markAccepted(trx, invitation.id, id, now))) throw new ApiError('not_found', INVITATION_GONE);
    if (!(await findMembership(trx, invitation.workspace_id, id))) {
      await addMembership(trx, invitation.workspace_id, id, role, now);
    }
    await recordAudit(
      trx,
      { userId: id, email: invitation.email },
      {
        workspaceId: invitation.workspace_id,
        action: 'member.add',
        targetType: 'member',
        targetId: id,
        after: { userId: id, email: invitation.email, role, invitationId: invitation.id },
      },
      now,
    );
    return id;
  });
}
