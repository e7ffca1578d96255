import { Type } from '@sinclair/typebox';
import { IdSchema, MemberSchema, RoleSchema } from '@warden/protocol/management';
import { actorOf, recordAudit } from '../../audit/log.ts';
import { ApiError } from '../../errors.ts';
import type { Database } from '../../storage/db.ts';
import { changeMembership, memberEmail } from '../../workspace/membership-changes.ts';
import { listMembers, memberView } from '../../workspace/workspaces.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requireWorkspace } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { bearer, Envelope } from './workspace-schemas.ts';

const WorkspaceParams = Type.Object({ id: IdSchema });

const MemberParams = Type.Object({ id: IdSchema, userId: IdSchema });

/** The access checks' reads and clock; a membership change also takes the whole database (its dialect). */
export interface MemberRouteDeps extends AuthDeps {
  readonly database: Database;
}

export async function memberRoutes(app: App, deps: MemberRouteDeps): Promise<void> {
  const db = deps.database.db;
  /** Owners only (SPEC §10: 404, 403 before the schema's 400). */
  const manage = accessCheck((request) =>
    requireWorkspace(deps, principalOf(request), looseString(request.params, 'id') ?? '', 'members.manage'),
  );
  const auth = { onRequest: authenticate(deps), preValidation: manage.preValidation };

  app.get(
    '/api/workspaces/:id/members',
    {
      ...auth,
      schema: {
        tags: ['members'],
        summary: 'Members of a workspace, with their e-mail addresses (owner)',
        security: bearer,
        params: WorkspaceParams,
        response: { 200: Envelope(Type.Array(MemberSchema)) },
      },
    },
    async (request) => ok(await listMembers(db, request.params.id)),
  );

  app.patch(
    '/api/workspaces/:id/members/:userId',
    {
      ...auth,
      schema: {
        tags: ['members'],
        summary: "Change a member's role (owner); the last owner cannot be demoted (409)",
        security: bearer,
        params: MemberParams,
        body: Type.Object({ role: RoleSchema }, { additionalProperties: false }),
        response: { 200: Envelope(MemberSchema) },
      },
    },
    async (request) => {
      const { id: workspaceId, userId } = request.params;
      const actor = await actorOf(deps, principalOf(request));
      const role = request.body.role;
      const email = await memberEmail(db, userId);
      await changeMembership(deps.database, workspaceId, userId, { role }, (trx, before) =>
        recordAudit(
          trx,
          actor,
          {
            workspaceId,
            action: 'member.update',
            targetType: 'member',
            targetId: userId,
            before: { userId, email, role: before },
            after: { userId, email, role },
          },
          deps.now(),
        ),
      );
      const member = await memberView(db, workspaceId, userId);
      if (!member) throw new ApiError('not_found', 'Member not found.');
      return ok(member);
    },
  );

  app.delete(
    '/api/workspaces/:id/members/:userId',
    {
      ...auth,
      schema: {
        tags: ['members'],
        summary: 'Remove a member (owner); the last owner cannot be removed (409)',
        description: 'Access ends at once: every request checks the membership.',
        security: bearer,
        params: MemberParams,
        response: { 200: Envelope(Type.Object({ userId: Type.String(), removed: Type.Literal(true) })) },
      },
    },
    async (request) => {
      const { id: workspaceId, userId } = request.params;
      const actor = await actorOf(deps, principalOf(request));
      const email = await memberEmail(db, userId);
      await changeMembership(deps.database, workspaceId, userId, 'remove', (trx, before) =>
        recordAudit(
          trx,
          actor,
          {
            workspaceId,
            action: 'member.remove',
            targetType: 'member',
            targetId: userId,
            before: { userId, email, role: before },
          },
          deps.now(),
        ),
      );
      return ok({ userId, removed: true as const });
    },
  );
}
