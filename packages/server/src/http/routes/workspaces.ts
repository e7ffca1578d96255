import { Type } from '@sinclair/typebox';
import { NameSchema, WorkspaceSchema } from '@warden/protocol/management';
import { createOwnedWorkspace, listWorkspacesOf, workspaceView } from '../../workspace/workspaces.ts';
import { accessCheck } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requireUnscoped } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { bearer, Envelope } from './workspace-schemas.ts';

export async function workspaceRoutes(app: App, deps: AuthDeps): Promise<void> {
  const db = deps.database.db;
  const auth = { onRequest: authenticate(deps) };
  /** Creating a workspace is account-wide: refused to SSO sessions (403 before the schema's 400). */
  const unscoped = accessCheck((request) => requireUnscoped(principalOf(request)));

  app.get(
    '/api/workspaces',
    {
      ...auth,
      schema: {
        tags: ['workspaces'],
        summary: 'Your workspaces, with your role in each',
        security: bearer,
        response: { 200: Envelope(Type.Array(WorkspaceSchema)) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return ok(await listWorkspacesOf(db, principal.userId, principal.workspaceScope));
    },
  );

  app.post(
    '/api/workspaces',
    {
      ...auth,
      preValidation: unscoped.preValidation,
      schema: {
        tags: ['workspaces'],
        summary: 'Create a workspace; you become its owner',
        description:
          'New workspaces start on the free plan; the plan is set by the operator ' +
          '(`warden workspace plan W pro`). Refused to single sign-on sessions (403).',
        security: bearer,
        body: Type.Object({ name: NameSchema }, { additionalProperties: false }),
        response: { 201: Envelope(WorkspaceSchema) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const now = deps.now();
      const workspace = await createOwnedWorkspace(db, request.body.name.trim(), principal.userId, now);
      reply.status(201);
      return ok(workspaceView(workspace, 'owner'));
    },
  );
}
