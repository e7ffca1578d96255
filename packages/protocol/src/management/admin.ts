import { type Static, Type } from '@sinclair/typebox';
import type { WebhookConfiguration, WebhookDeliveryRecord } from '../webhook.ts';

/** Webhook configuration and the audit log of the management API (SPEC §10, §11): the answers' types. */

/** The webhook configuration answers are the scoring contract's (`webhook.ts`), named as the dashboard reads them. */
export type WebhookDelivery = WebhookDeliveryRecord;
/** GET and PUT /api/webhooks?siteId (the same shape). */
export type WebhookConfig = WebhookConfiguration;

/** GET /api/audit?workspaceId= */
export const AuditQuery = Type.Object(
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

/** One entry of the audit log (GET /api/audit). */
export const AuditEntry = Type.Object({
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

export type AuditEntry = Static<typeof AuditEntry>;

export const AuditPage = Type.Object({
  items: Type.Array(AuditEntry),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type AuditPage = Static<typeof AuditPage>;
