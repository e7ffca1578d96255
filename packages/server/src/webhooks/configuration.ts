import type { WebhookConfiguration, WebhookDeliveryRecord } from '@warden/protocol';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../config.ts';
import { decisionById, latestDecisionOfSite } from '../decisions/transaction-queries.ts';
import { ApiError } from '../errors.ts';
import type { Database, DB } from '../storage/db.ts';
import type { WebhookDeliveriesTable } from '../storage/webhook-schema.ts';
import { cancelPendingDeliveries, insertDelivery, type OutboxSignal } from './outbox.ts';
import { checkWebhookUrlOnSave, type LookupAll, systemLookup } from './safe-url.ts';
import { newWebhookSecret } from './signer.ts';

/** Deliveries shown on read (interface §8). */
export const DELIVERIES_SHOWN = 25;

type Executor = Kysely<DB> | Transaction<DB>;
const iso = (ms: number) => new Date(ms).toISOString();

export function deliveryRecord(row: WebhookDeliveriesTable): WebhookDeliveryRecord {
  return {
    id: row.id,
    decisionId: row.decision_id,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    lastResponseBody: row.last_response_body,
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The configuration read of SPEC §10; before the first PUT: url/secret/dates null, disabled. */
export async function readConfiguration(db: Executor, siteId: string): Promise<WebhookConfiguration> {
  const hook = await db.selectFrom('webhooks').selectAll().where('site_id', '=', siteId).executeTakeFirst();
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(DELIVERIES_SHOWN)
    .execute();
  return {
    siteId,
    url: hook?.url ?? null,
    enabled: hook?.enabled === 1,
    secret: hook?.secret ?? null,
    createdAt: hook ? iso(hook.created_at) : null,
    updatedAt: hook ? iso(hook.updated_at) : null,
    deliveries: deliveries.map(deliveryRecord),
  };
}

export interface ConfigurationUpdate {
  url: string;
  enabled: boolean;
  rotateSecret?: boolean | undefined;
}

/**
 * What a configuration change or a queued delivery uses: the database, the clock, the URL policy
 * and resolver (saved URLs are checked), and the dispatcher's wake-up.
 */
export interface WebhookConfigurationDeps {
  readonly database: Pick<Database, 'db'>;
  now(): number;
  readonly config: Pick<Config, 'unsafeWebhookTargets' | 'webhookPrivateSuffixes'>;
  readonly lookup?: LookupAll | undefined;
  readonly services: { readonly outbox: OutboxSignal };
}

/** PUT: validate the URL and its DNS answers (400 invalid_webhook_url), create or rotate the secret, cancel on disable. */
export async function saveConfiguration(
  ctx: WebhookConfigurationDeps,
  siteId: string,
  update: ConfigurationUpdate,
): Promise<WebhookConfiguration> {
  const policy = {
    unsafeTargets: ctx.config.unsafeWebhookTargets,
    privateSuffixes: ctx.config.webhookPrivateSuffixes,
  };
  const check = await checkWebhookUrlOnSave(update.url, policy, ctx.lookup ?? systemLookup);
  if (!check.ok) throw new ApiError('invalid_webhook_url', `Invalid webhook URL: ${check.reason}.`);
  const now = ctx.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('webhooks')
      .selectAll()
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    const secret = !existing || update.rotateSecret === true ? newWebhookSecret() : existing.secret;
    const enabled = update.enabled ? 1 : 0;
    if (existing) {
      await trx
        .updateTable('webhooks')
        .set({ url: update.url, enabled, secret, updated_at: now })
        .where('site_id', '=', siteId)
        .execute();
    } else {
      await trx
        .insertInto('webhooks')
        .values({ site_id: siteId, url: update.url, enabled, secret, created_at: now, updated_at: now })
        .execute();
    }
    if (!update.enabled) await cancelPendingDeliveries(trx, siteId, 'the webhook was disabled', now);
    return readConfiguration(trx, siteId);
  });
}

async function requireEnabled(db: Executor, siteId: string): Promise<void> {
  const hook = await db
    .selectFrom('webhooks')
    .select('enabled')
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  if (hook?.enabled !== 1) throw new ApiError('conflict', 'The webhook is not configured or not enabled.');
}

export interface QueuedDelivery {
  deliveryId: string;
  decisionId: string;
}

/** Test route: a new delivery wrapping the site's latest recorded decision (409 when impossible). */
export async function queueTestDelivery(
  ctx: WebhookConfigurationDeps,
  siteId: string,
): Promise<QueuedDelivery> {
  return ctx.database.db.transaction().execute(async (trx) => {
    await requireEnabled(trx, siteId);
    const latest = await latestDecisionOfSite(trx, siteId);
    if (!latest) throw new ApiError('conflict', 'The site has no recorded decision to send yet.');
    return {
      deliveryId: await insertDelivery(trx, latest, ctx.now(), ctx.services.outbox),
      decisionId: latest.id,
    };
  });
}

export async function findDelivery(
  db: Executor,
  deliveryId: string,
): Promise<WebhookDeliveriesTable | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirst();
}

/**
 * Owner redelivery. `failed` → the same delivery (same id) is queued again with its attempts reset;
 * `succeeded`/`cancelled` → a new delivery wraps the same decision; `pending` → 409 (already queued).
 */
export async function redeliver(
  ctx: WebhookConfigurationDeps,
  delivery: WebhookDeliveriesTable,
): Promise<QueuedDelivery> {
  const now = ctx.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    await requireEnabled(trx, delivery.site_id);
    if (delivery.status === 'pending') throw new ApiError('conflict', 'The delivery is already queued.');
    if (delivery.status === 'failed') {
      const result = await trx
        .updateTable('webhook_deliveries')
        .set({
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          lease_until: null,
          lease_owner: null,
          updated_at: now,
        })
        .where('id', '=', delivery.id)
        .where('status', '=', 'failed')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1)
        throw new ApiError('conflict', 'The delivery changed meanwhile.');
      ctx.services.outbox.queued();
      return { deliveryId: delivery.id, decisionId: delivery.decision_id };
    }
    const decision = await decisionById(trx, delivery.decision_id);
    if (!decision) throw new ApiError('conflict', 'The decision of this delivery no longer exists.');
    return {
      deliveryId: await insertDelivery(trx, decision, now, ctx.services.outbox),
      decisionId: decision.id,
    };
  });
}
