import { Type } from '@sinclair/typebox';
import { Envelope } from '@warden/protocol';
import { auditPage, decodeAuditCursor } from '../../audit/log.ts';
import type { AppContext } from '../../context.ts';
import { assertValid, authenticate, principalOf, requireWorkspace } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { badQuery } from './decision-time.ts';
import { typeboxValidatorCompiler } from './scoring-validation.ts';

const AuditQuery = Type.Object(
  {
    workspaceId: Type.String({ minLength: 1, maxLength: 64 }),
    limit: Type.Optional(
      Type.String({ pattern: '^([1-9]|[1-9][0-9]|100)$', description: '1–100, default 50' }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'nextCursor of the previous page' })),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'e.g. rule.update' })),
    targetType: Type.Optional(
      Type.Union(
        ['rule', 'list', 'member', 'invitation', 'site', 'webhook', 'sso', 'decision', 'entity'].map((t) =>
          Type.Literal(t),
        ),
      ),
    ),
    targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: false },
);

const AuditEntry = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  siteId: Type.Union([Type.String(), Type.Null()]),
  actor: Type.Object({
    userId: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
  }),
  action: Type.String(),
  targetType: Type.String(),
  targetId: Type.String(),
  before: Type.Unknown({ description: 'the target before the change (null on create), secrets redacted' }),
  after: Type.Unknown({ description: 'the target after the change (null on delete), secrets redacted' }),
  createdAt: Type.String(),
});

const AuditPage = Type.Object({
  items: Type.Array(AuditEntry),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

/** GET /api/audit?workspaceId=: the workspace's audit log, newest first (owners and analysts). */
export async function auditRoutes(app: App, ctx: AppContext): Promise<void> {
  app.setValidatorCompiler(typeboxValidatorCompiler);
  app.get(
    '/api/audit',
    {
      onRequest: authenticate(ctx),
      attachValidation: true,
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
      const workspaceId = (request.query as { workspaceId?: unknown }).workspaceId;
      if (typeof workspaceId === 'string')
        await requireWorkspace(ctx, principalOf(request), workspaceId, 'audit.read');
      assertValid(request);
      const q = request.query;
      const after = q.cursor === undefined ? undefined : decodeAuditCursor(q.cursor);
      if (after === null) throw badQuery('querystring.cursor', 'is not a cursor returned by this API');
      return ok(
        await auditPage(ctx.database.db, {
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
