import { Type } from '@sinclair/typebox';
import { WebhookConfiguration, WebhookConfigurationUpdate } from '@warden/protocol';
import { IdSchema } from '@warden/protocol/management';
import { actorOf, recordAudit } from '../../audit/log.ts';
import { ApiError } from '../../errors.ts';
import {
  findDelivery,
  queueTestDelivery,
  readConfiguration,
  redeliver,
  saveConfiguration,
  type WebhookConfigurationDeps,
} from '../../webhooks/configuration.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requirePlan, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { bearer, Envelope } from './workspace-schemas.ts';

const SiteQuery = Type.Object({ siteId: IdSchema });
const DeliveryParams = Type.Object({ id: IdSchema });
const QueuedDelivery = Type.Object({ deliveryId: Type.String(), decisionId: Type.String() });

/** What the webhook routes use: the access checks and the configuration's writes (webhooks/configuration.ts). */
export type WebhooksDeps = AuthDeps & WebhookConfigurationDeps;

/** Webhook configuration (interface §4.2, SPEC §10): owner only, Pro/Enterprise (demo exempt). */
export async function webhookRoutes(app: App, ctx: WebhooksDeps): Promise<void> {
  /** SPEC §10 order: 401 (hook) → 404 → 403 → 402 → 400. A missing or empty siteId is the schema's 400. */
  const siteOwner = accessCheck(async (request) => {
    const siteId = looseString(request.query, 'siteId');
    if (!siteId) return undefined;
    const access = await requireSite(ctx, principalOf(request), siteId, 'webhooks.manage');
    requirePlan(access, 'webhooks');
    return access;
  });
  /** The delivery, then its site's owner and plan (404 for a delivery of a site not yours). */
  const deliveryOwner = accessCheck(async (request) => {
    const delivery = await findDelivery(ctx.database.db, looseString(request.params, 'id') || '');
    if (!delivery) throw new ApiError('not_found', 'Delivery not found.');
    const access = await requireSite(ctx, principalOf(request), delivery.site_id, 'webhooks.manage');
    requirePlan(access, 'webhooks');
    return delivery;
  });
  const auth = { onRequest: authenticate(ctx) };

  const tags = ['webhooks'];

  app.get(
    '/api/webhooks',
    {
      ...auth,
      preValidation: siteOwner.preValidation,
      schema: {
        tags,
        summary: 'Webhook configuration, signing secret and the latest 25 deliveries (owner)',
        security: bearer,
        querystring: SiteQuery,
        response: { 200: Envelope(WebhookConfiguration) },
      },
    },
    async (request) => {
      const { site } = siteOwner.of(request);
      return ok(await readConfiguration(ctx.database.db, site.id));
    },
  );

  app.put(
    '/api/webhooks',
    {
      ...auth,
      preValidation: siteOwner.preValidation,
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
      const { site } = siteOwner.of(request);
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
      preValidation: siteOwner.preValidation,
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
      const { site } = siteOwner.of(request);
      reply.status(202);
      return ok(await queueTestDelivery(ctx, site.id));
    },
  );

  app.post(
    '/api/webhooks/deliveries/:id/redeliver',
    {
      ...auth,
      preValidation: deliveryOwner.preValidation,
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
      reply.status(202);
      return ok(await redeliver(ctx, deliveryOwner.of(request)));
    },
  );
}
