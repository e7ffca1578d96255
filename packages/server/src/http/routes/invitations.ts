import { Type } from '@sinclair/typebox';
import {
  EmailSchema,
  IdSchema,
  IsoTime,
  NameSchema,
  PasswordSchema,
  RoleSchema,
} from '@warden/protocol/management';
import type { FastifyRequest } from 'fastify';
import { actorOf, recordAudit } from '../../audit/log.ts';
import { ApiError } from '../../errors.ts';
import {
  acceptInvitation,
  INVITATION_GONE,
  invitedWorkspaceName,
} from '../../workspace/invitation-accept.ts';
import {
  createInvitation,
  findPendingByToken,
  invitationView,
  listPendingInvitations,
  revokeInvitation,
} from '../../workspace/invitations.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../workspace/passwords.ts';
import { findUserByEmail, findUserById } from '../../workspace/users.ts';
import { findMembership } from '../../workspace/workspaces.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requireWorkspace } from '../auth.ts';
import { ok } from '../envelope.ts';
import { type LoginThrottleDeps, throttleLogin } from '../login-throttle.ts';
import type { App } from '../types.ts';
import { bearer, Envelope } from './workspace-schemas.ts';

const WorkspaceParams = Type.Object({ id: IdSchema });
const InvitationParams = Type.Object({ id: IdSchema, invitationId: IdSchema });
const InviteBody = Type.Object({ email: EmailSchema, role: RoleSchema }, { additionalProperties: false });
const TokenSchema = Type.String({ minLength: 1, maxLength: 200 });

const InvitationSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: RoleSchema,
  createdAt: IsoTime,
  expiresAt: IsoTime,
});
const CreatedInvitation = Type.Composite([
  InvitationSchema,
  Type.Object({ token: Type.String({ description: 'Single-use acceptance token, shown only here' }) }),
]);
const InvitationPreview = Type.Object({
  email: Type.String(),
  role: RoleSchema,
  workspaceId: Type.String(),
  workspaceName: Type.String(),
  expiresAt: IsoTime,
});
const AcceptBody = Type.Object(
  { token: TokenSchema, password: Type.Optional(PasswordSchema), name: Type.Optional(NameSchema) },
  { additionalProperties: false },
);
const NEW_PASSWORD_MIN = 8;

/**
 * Members join by invitation (SPEC §11). An owner invites an address with a role and hands over
 * the single-use token; the answer is the same whether the address has an account or not. The
 * token's holder accepts either signed in as that address, or with the address's password (an
 * existing account: as at sign-in) or a new one (no account yet: it is created then).
 */
/** The access checks' reads and clock, and the sign-in throttle (an accept with a password is one). */
export type InvitationRouteDeps = AuthDeps & LoginThrottleDeps;

export async function invitationRoutes(app: App, deps: InvitationRouteDeps): Promise<void> {
  const db = deps.database.db;
  /** The workspace's invitations are its owners' (SPEC §10: 404, 403 before the schema's 400). */
  const manage = accessCheck((request) =>
    requireWorkspace(deps, principalOf(request), looseString(request.params, 'id') ?? '', 'members.manage'),
  );
  const auth = { onRequest: authenticate(deps), preValidation: manage.preValidation };
  const tags = ['members'];

  app.post(
    '/api/workspaces/:id/invitations',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Invite an e-mail address to join with a role (owner)',
        description:
          'Answers the invitation and its single-use token (valid 7 days) for the owner to hand over; ' +
          'the same answer whether or not the address has an account. An earlier pending invitation of ' +
          'the same address is revoked. 409 when a member already has that address.',
        security: bearer,
        params: WorkspaceParams,
        body: InviteBody,
        response: { 201: Envelope(CreatedInvitation) },
      },
    },
    async (request, reply) => {
      const workspaceId = request.params.id;
      const principal = principalOf(request);
      const { email, role } = request.body;
      const now = deps.now();
      // Members are listed to owners anyway, so refusing a member's address reveals nothing new.
      const existing = await findUserByEmail(db, email);
      if (existing && (await findMembership(db, workspaceId, existing.id))) {
        throw new ApiError('conflict', `${existing.email} is already a member of this workspace.`);
      }
      const { invitation, token } = await createInvitation(
        db,
        { workspaceId, email, role, createdBy: principal.userId },
        now,
      );
      await recordAudit(
        db,
        await actorOf(deps, principal),
        {
          workspaceId,
          action: 'invitation.create',
          targetType: 'invitation',
          targetId: invitation.id,
          after: { email: invitation.email, role },
        },
        now,
      );
      reply.status(201);
      return ok({ ...invitationView(invitation), token });
    },
  );

  app.get(
    '/api/workspaces/:id/invitations',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Pending invitations of a workspace (owner)',
        security: bearer,
        params: WorkspaceParams,
        response: { 200: Envelope(Type.Array(InvitationSchema)) },
      },
    },
    async (request) => {
      const rows = await listPendingInvitations(db, request.params.id, deps.now());
      return ok(rows.map(invitationView));
    },
  );

  app.delete(
    '/api/workspaces/:id/invitations/:invitationId',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Revoke a pending invitation (owner)',
        security: bearer,
        params: InvitationParams,
        response: { 200: Envelope(Type.Object({ id: Type.String(), revoked: Type.Literal(true) })) },
      },
    },
    async (request) => {
      const { id: workspaceId, invitationId } = request.params;
      const principal = principalOf(request);
      const now = deps.now();
      const revoked = await revokeInvitation(db, workspaceId, invitationId, now);
      if (!revoked) throw new ApiError('not_found', 'No pending invitation with this id.');
      await recordAudit(
        db,
        await actorOf(deps, principal),
        {
          workspaceId,
          action: 'invitation.revoke',
          targetType: 'invitation',
          targetId: invitationId,
          before: { email: revoked.email, role: revoked.role },
        },
        now,
      );
      return ok({ id: invitationId, revoked: true as const });
    },
  );

  app.post(
    '/api/invitations/preview',
    {
      schema: {
        tags,
        summary: 'What an invitation token opens: the address, workspace and role',
        description: 'The token travels in the body, never in a URL (URLs are logged). 404 when not pending.',
        body: Type.Object({ token: TokenSchema }, { additionalProperties: false }),
        response: { 200: Envelope(InvitationPreview) },
      },
    },
    async (request) => {
      const invitation = await findPendingByToken(db, request.body.token, deps.now());
      if (!invitation) throw new ApiError('not_found', INVITATION_GONE);
      return ok({
        email: invitation.email,
        role: invitationView(invitation).role,
        workspaceId: invitation.workspace_id,
        workspaceName: await invitedWorkspaceName(db, invitation),
        expiresAt: invitationView(invitation).expiresAt,
      });
    },
  );

  /** The accepting account: the signed-in user, or the invited address's account by password. */
  async function acceptingUser(
    request: FastifyRequest,
    workspaceId: string,
    invitedEmail: string,
    body: { password?: string | undefined; name?: string | undefined },
  ): Promise<{ id: string; email: string } | null> {
    if (request.headers.authorization !== undefined) {
      await authenticate(deps)(request);
      const principal = principalOf(request);
      // A single sign-on session is confined to its workspace: it cannot join another one.
      if (principal.workspaceScope && principal.workspaceScope !== workspaceId) {
        throw new ApiError(
          'forbidden',
          'This session is limited to another workspace; sign in with a password.',
        );
      }
      const user = await findUserById(db, principal.userId);
      if (!user) throw new ApiError('unauthorized', 'The account no longer exists; sign in again.');
      if (user.email !== invitedEmail) {
        throw new ApiError('forbidden', 'This invitation is for another e-mail address.');
      }
      return user;
    }
    if (body.password === undefined) {
      throw new ApiError('validation_failed', 'Sign in, or send the password of the invited address.', [
        { path: 'body.password', message: 'is required when not signed in' },
      ]);
    }
    await throttleLogin(deps, invitedEmail, request.ip);
    const user = await findUserByEmail(db, invitedEmail);
    if (user) {
      // An existing account proves itself as at sign-in (an SSO-only one must accept signed in).
      const valid = await verifyPassword(body.password, user.password_hash ?? DUMMY_PASSWORD_HASH);
      if (!user.password_hash || !valid) {
        throw new ApiError('invalid_credentials', 'The e-mail or password is not correct.');
      }
      return user;
    }
    if (body.password.length < NEW_PASSWORD_MIN) {
      throw new ApiError('validation_failed', 'Choose a password of 8 or more characters.', [
        { path: 'body.password', message: `must have at least ${NEW_PASSWORD_MIN} characters` },
      ]);
    }
    // No account yet: the accept creates it.
    return null;
  }

  app.post(
    '/api/invitations/accept',
    {
      schema: {
        tags,
        summary: 'Accept an invitation: signed in as the invited address, or with its password',
        description:
          'Signed in (Authorization: Bearer) as the invited address; or with `password`: the password ' +
          'of the existing account, or a new one (8+ characters, with an optional `name`) that ' +
          'creates the account. Then sign in as usual. 404 when the token is not pending; 401 ' +
          'invalid_credentials for a wrong password; throttled like sign-in (429).',
        // Either no credentials (the token and a password) or the invited address's session.
        security: [{}, ...bearer],
        body: AcceptBody,
        response: {
          200: Envelope(
            Type.Object({
              workspaceId: Type.String(),
              userId: Type.String(),
              email: Type.String(),
              role: RoleSchema,
            }),
          ),
        },
      },
    },
    async (request) => {
      const now = deps.now();
      const invitation = await findPendingByToken(db, request.body.token, now);
      if (!invitation) throw new ApiError('not_found', INVITATION_GONE);
      const found = await acceptingUser(request, invitation.workspace_id, invitation.email, request.body);
      const role = invitationView(invitation).role;
      const account = found
        ? { existing: found }
        : {
            existing: null,
            passwordHash: await hashPassword(request.body.password ?? ''),
            name: request.body.name,
          };
      const userId = await acceptInvitation(db, invitation, account, now);
      request.log.info({ workspaceId: invitation.workspace_id, userId }, 'invitation accepted');
      return ok({ workspaceId: invitation.workspace_id, userId, email: invitation.email, role });
    },
  );
}
