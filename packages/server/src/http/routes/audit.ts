import { Envelope } from '@warden/protocol';
import { AuditPage, AuditQuery } from '@warden/protocol/management';
import { auditPage, decodeAuditCursor } from '../../audit/log.ts';
import { badQuery } from '../../decisions/decision-time.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requireWorkspace } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { schemaValidator } from '../validation.ts';

/** GET /api/audit?workspaceId=: the workspace's audit log, newest first (owners and analysts). */
export async function auditRoutes(app: App, deps: AuthDeps): Promise<void> {
  app.setValidatorCompiler(schemaValidator('every'));
  // SPEC §10: the workspace (404) and the role (403) before the schema (400).
  const reader = accessCheck(async (request) => {
    const workspaceId = looseString(request.query, 'workspaceId');
    if (workspaceId !== undefined)
      await requireWorkspace(deps, principalOf(request), workspaceId, 'audit.read');
  });
  app.get(
    '/api/audit',
    {
      onRequest: authenticate(deps),
      preValidation: reader.preValidation,
      schema: {
        tags: ['workspaces'],
        summary:
          'Audit log of a workspace: who changed rules, lists, members, keys, webhooks, SSO (owner, analyst)',
        security: [{ bearer: [] }],
        querystring: AuditQuery,
        response: { 200: Envelope(AuditPage) },
      },
    },
    async (request) => {
      const q = request.query;
      const after = q.cursor === undefined ? undefined : decodeAuditCursor(q.cursor);
      if (after === null) throw badQuery('querystring.cursor', 'is not a cursor returned by this API');
      return ok(
        await auditPage(deps.database.db, {
          workspaceId: q.workspaceId,
          limit: q.limit ? Number(q.limit) : 50,
          after,
          action: q.action,
          targetType: q.targetType,
          targetId: q.targetId,
        }),
      );
    },
  );
}
