import { Type } from '@sinclair/typebox';
import { WebhookConfiguration, WebhookConfigurationUpdate } from '@warden/protocol';
import { IdSchema } from '@warden/protocol/management';
import { actorOf, recordAudit } from '../../audit/log.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import {
  findDelivery,
  queueTestDelivery,
  readConfiguration,
  redeliver,
  saveConfiguration,
} from '../../webhooks/configuration.ts';
import {
  assertValid,
  authenticate,
  principalOf,
  requirePlan,
  requireSite,
  type SiteAccess,
} from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { bearer, Envelope } from './workspace-schemas.ts';

const SiteQuery = Type.Object({ siteId: IdSchema });
const DeliveryParams = Type.Object({ id: IdSchema });
const QueuedDelivery = Type.Object({ deliveryId: Type.String(), decisionId: Type.String() });

function looseString(value: unknown, field: string): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = (value as Record<string, unknown>)[field];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Webhook configuration (interface §4.2, SPEC §10): owner only, Pro/Enterprise (demo exempt). */
export async function webhookRoutes(app: App, ctx: AppContext): Promise<void> {
  const auth = { onRequest: authenticate(ctx), attachValidation: true };

  /** SPEC §10 order: 401 (hook) → 404 → 403 → 402 → 400. A missing siteId is a 400. */
  async function ownerAccess(request: Parameters<typeof principalOf>[0]): Promise<SiteAccess> {
    const principal = principalOf(request);
    const siteId = looseString(request.query, 'siteId');
    if (siteId === undefined) {
      assertValid(request);
      throw new ApiError('validation_failed', 'Invalid querystring: siteId is required.', [
        { path: 'querystring.siteId', message: 'is required' },
      ]);
    }
    const access = await requireSite(ctx, principal, siteId, 'webhooks.manage');
    requirePlan(access, 'webhooks');
    assertValid(request);
    return access;
  }

  const tags = ['webhooks'];

  app.get(
    '/api/webhooks',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Webhook configuration, signing secret and the latest 25 deliveries (owner)',
        security: bearer,
        querystring: SiteQuery,
        response: { 200: Envelope(WebhookConfiguration) },
      },
    },
    async (request) => {
      const { site } = await ownerAccess(request);
      return ok(await readConfiguration(ctx.database.db, site.id));
    },
  );

  app.put(
    '/api/webhooks',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Save the webhook URL and switch; `rotateSecret: true` replaces the secret at once (owner)',
        description:
          'The URL must be public HTTPS on port 443 (400 `invalid_webhook_url`). Disabling cancels queued deliveries.',
        security: bearer,
        querystring: SiteQuery,
        body: WebhookConfigurationUpdate,
        response: { 200: Envelope(WebhookConfiguration) },
      },
    },
    async (request) => {
      const { site } = await ownerAccess(request);
      const { url, enabled, rotateSecret } = request.body;
      const before = await readConfiguration(ctx.database.db, site.id);
      const saved = await saveConfiguration(ctx, site.id, { url, enabled, rotateSecret });
      // saveConfiguration commits its own transaction (it also cancels queued deliveries): the
      // entry follows it. The signing secret is never recorded, only that it was rotated.
      const summary = (c: { url: string | null; enabled: boolean }) => ({ url: c.url, enabled: c.enabled });
      await recordAudit(
        ctx.database.db,
        await actorOf(ctx, principalOf(request)),
        {
          workspaceId: site.workspace_id,
          siteId: site.id,
          action: 'webhook.update',
          targetType: 'webhook',
          targetId: site.id,
          before: before.createdAt ? summary(before) : null,
          after: { ...summary(saved), secretRotated: rotateSecret === true },
        },
        ctx.now(),
      );
      request.log.info(
        { siteId: site.id, enabled, rotated: rotateSecret === true },
        'webhook configuration saved',
      );
      return ok(saved);
    },
  );

  app.post(
    '/api/webhooks/test',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Send a decision.created delivery about the latest recorded decision (owner)',
        description: '409 `conflict` when the webhook is disabled or the site has no recorded decision.',
        security: bearer,
        querystring: SiteQuery,
        response: { 202: Envelope(QueuedDelivery) },
      },
    },
    async (request, reply) => {
      const { site } = await ownerAccess(request);
      reply.status(202);
      return ok(await queueTestDelivery(ctx, site.id));
    },
  );

  app.post(
    '/api/webhooks/deliveries/:id/redeliver',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Redeliver a delivery (owner)',
        description:
          'A `failed` delivery is queued again under the same id with its attempts reset; a `succeeded` or ' +
          '`cancelled` one is wrapped in a new delivery of the same decision. 409 when it is still pending ' +
          'or the webhook is disabled.',
        security: bearer,
        params: DeliveryParams,
        response: { 202: Envelope(QueuedDelivery) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const deliveryId = looseString(request.params, 'id') ?? '';
      const delivery = await findDelivery(ctx.database.db, deliveryId);
      if (!delivery) throw new ApiError('not_found', 'Delivery not found.');
      const access = await requireSite(ctx, principal, delivery.site_id, 'webhooks.manage');
      requirePlan(access, 'webhooks');
      assertValid(request);
      reply.status(202);
      return ok(await redeliver(ctx, delivery));
    },
  );
}
