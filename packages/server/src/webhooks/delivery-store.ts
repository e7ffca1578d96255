import type { Plan } from '@warden/protocol/permissions';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../storage/db.ts';
import type { Dialect } from '../storage/migrations/types.ts';
import type { DeliveryStatus } from '../storage/webhook-schema.ts';
import { type ClaimedDelivery, cancelPendingOfSites, STATUS_IS_PENDING } from './outbox.ts';

export interface EndpointState {
  url: string;
  secret: string;
  enabled: boolean;
  plan: Plan;
  demo: boolean;
}

/**
 * Lease up to `limit` due deliveries for `workerId`. PostgreSQL: `FOR UPDATE SKIP LOCKED`, so
 * workers in many processes never take the same row. SQLite: the single UPDATE is atomic (the
 * database allows one writer at a time). A lease that expires (crashed worker) makes the row due again.
 */
export async function claimDueDeliveries(
  db: Kysely<DB>,
  dialect: Dialect,
  workerId: string,
  limit: number,
  nowMs: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  return (
    db
      .updateTable('webhook_deliveries')
      .set({ lease_owner: workerId, lease_until: nowMs + leaseMs })
      .where('id', 'in', (qb) =>
        qb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where(STATUS_IS_PENDING)
          .where('next_attempt_at', '<=', nowMs)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', nowMs)]))
          .orderBy('next_attempt_at')
          .limit(limit)
          .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked()),
      )
      // No second status filter here: it would make SQLite scan every pending row instead of the ids.
      .returning(['id', 'site_id', 'decision_id', 'payload', 'attempts', 'decision_created_at'])
      .execute()
  );
}

/** Current endpoint, enabled flag and plan of each site: read at send time, never cached. */
export async function loadEndpoints(
  db: Kysely<DB>,
  siteIds: readonly string[],
): Promise<Map<string, EndpointState>> {
  const map = new Map<string, EndpointState>();
  if (siteIds.length === 0) return map;
  const rows = await db
    .selectFrom('webhooks')
    .innerJoin('sites', 'sites.id', 'webhooks.site_id')
    .innerJoin('workspaces', 'workspaces.id', 'sites.workspace_id')
    .select([
      'webhooks.site_id',
      'webhooks.url',
      'webhooks.secret',
      'webhooks.enabled',
      'workspaces.plan',
      'workspaces.demo',
    ])
    .where('webhooks.site_id', 'in', [...siteIds])
    .execute();
  for (const row of rows) {
    map.set(row.site_id, {
      url: row.url,
      secret: row.secret,
      enabled: row.enabled === 1,
      plan: row.plan,
      demo: row.demo === 1,
    });
  }
  return map;
}

export interface AttemptRecord {
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastResponseBody: string | null;
  nextAttemptAt: number;
}

/** Record an attempt's result; ignored if the lease was lost or the delivery was cancelled meanwhile. */
export async function completeAttempt(
  db: Kysely<DB>,
  deliveryId: string,
  workerId: string,
  record: AttemptRecord,
  nowMs: number,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      status: record.status,
      attempts: record.attempts,
      last_status_code: record.lastStatusCode,
      last_error: record.lastError === null ? null : record.lastError.slice(0, 500),
      last_response_body: record.lastResponseBody,
      next_attempt_at: record.nextAttemptAt,
      lease_until: null,
      lease_owner: null,
      updated_at: nowMs,
    })
    .where('id', '=', deliveryId)
    .where('lease_owner', '=', workerId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Record many successful attempts with one statement (the hot path at high volume). Returns the ids
 * actually updated (lease still held, not cancelled meanwhile).
 */
export async function completeSuccesses(
  db: Kysely<DB>,
  workerId: string,
  deliveryIds: readonly string[],
  statusCode: number,
  responseBody: string | null,
  nowMs: number,
): Promise<Set<string>> {
  if (deliveryIds.length === 0) return new Set();
  const rows = await db
    .updateTable('webhook_deliveries')
    .set({
      status: 'succeeded',
      attempts: sql<number>`attempts + 1`,
      last_status_code: statusCode,
      last_error: null,
      last_response_body: responseBody,
      next_attempt_at: nowMs,
      lease_until: null,
      lease_owner: null,
      updated_at: nowMs,
    })
    .where('id', 'in', [...deliveryIds])
    .where('lease_owner', '=', workerId)
    // `status || ''`, not `status`: the ids are looked up, never the index of every pending row.
    .where(sql<string>`status || ''`, '=', 'pending')
    .returning('id')
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Give back the leases of deliveries this worker was handed but will not send (it is stopping): due
 * again at once for any worker, instead of when the lease lapses.
 */
export async function releaseLeases(
  db: Kysely<DB>,
  workerId: string,
  deliveryIds: readonly string[],
): Promise<void> {
  if (deliveryIds.length === 0) return;
  await db
    .updateTable('webhook_deliveries')
    .set({ lease_owner: null, lease_until: null })
    .where('id', 'in', [...deliveryIds])
    .where('lease_owner', '=', workerId)
    .execute();
}

/** Cancel queued deliveries of sites whose webhook is disabled. */
export async function cancelDeliveriesOfDisabledWebhooks(db: Kysely<DB>, nowMs: number): Promise<number> {
  const sites = await db.selectFrom('webhooks').select('site_id').where('enabled', '=', 0).execute();
  return cancelPendingOfSites(
    db,
    sites.map((s) => s.site_id),
    'the webhook is disabled',
    nowMs,
  );
}

export async function countPending(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(STATUS_IS_PENDING)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
