import type { WebhookConfiguration, WebhookDeliveryRecord } from '../webhook.ts';

/** Webhook configuration and the audit log of the management API (SPEC §10, §11): the answers' types. */

/** The webhook configuration answers are the scoring contract's (`webhook.ts`), named as the dashboard reads them. */
export type WebhookDelivery = WebhookDeliveryRecord;
/** GET and PUT /api/webhooks?siteId (the same shape). */
export type WebhookConfig = WebhookConfiguration;

/** One entry of the audit log (GET /api/audit). */
export interface AuditEntry {
  id: string;
  workspaceId: string;
  siteId: string | null;
  actor: { userId: string | null; email: string | null };
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  createdAt: string;
}

export interface AuditPage {
  items: AuditEntry[];
  nextCursor: string | null;
}
