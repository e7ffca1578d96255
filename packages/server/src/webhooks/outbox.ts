import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../storage/db.ts';
import type { DecisionsTable } from '../storage/scoring-schema.ts';
import { planAllows } from '../workspace/permissions.ts';
import { type DecisionForPayload, decisionCreatedData, serializeDecisionCreated } from './payload.ts';

type Executor = Kysely<DB> | Transaction<DB>;

const queuedListeners = new Set<() => void>();

/**
 * In-process wake-up: a dispatcher in this process subscribes and is kicked shortly after a
 * delivery is queued. The kick is deferred, so it usually lands after the caller's commit; when it
 * does not, the dispatcher's short poll picks the row up anyway.
 */
export function onDeliveryQueued(listener: () => void): () => void {
  queuedListeners.add(listener);
  return () => queuedListeners.delete(listener);
}

let kickScheduled = false;
export function notifyQueued(): void {
  if (kickScheduled || queuedListeners.size === 0) return;
  kickScheduled = true;
  setTimeout(() => {
    kickScheduled = false;
    for (const listener of queuedListeners) listener();
  }, 1);
}

/** Whether the site's webhook is enabled and its workspace's plan allows webhooks. */
export async function webhookIsActive(db: Executor, siteId: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhooks')
    .innerJoin('sites', 'sites.id', 'webhooks.site_id')
    .innerJoin('workspaces', 'workspaces.id', 'sites.workspace_id')
    .select(['webhooks.enabled', 'workspaces.plan', 'workspaces.demo'])
    .where('webhooks.site_id', '=', siteId)
    .executeTakeFirst();
  if (row?.enabled !== 1) return false;
  return planAllows({ plan: row.plan, demo: row.demo === 1 }, 'webhooks');
}

/** Insert one pending delivery of `decision` (no checks). Returns the new delivery id. */
export async function insertDelivery(
  db: Executor,
  decision: DecisionForPayload,
  nowMs: number = Date.now(),
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('webhook_deliveries')
    .values({
      id,
      site_id: decision.site_id,
      decision_id: decision.id,
      payload: serializeDecisionCreated(id, nowMs, decisionCreatedData(decision)),
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      last_response_body: null,
      next_attempt_at: nowMs,
      lease_until: null,
      lease_owner: null,
      decision_created_at: decision.created_at,
      created_at: nowMs,
      updated_at: nowMs,
    })
    .execute();
  notifyQueued();
  return id;
}

/**
 * Called by the scoring routes inside the transaction that records a decision: writes the
 * `decision.created` outbox row when the site's webhook is enabled and the plan allows it.
 * Same transaction ⇒ a decision is never recorded without its delivery, nor the reverse.
 */
export async function enqueueDecisionCreated(trx: Transaction<DB>, decision: DecisionsTable): Promise<void> {
  if (!(await webhookIsActive(trx, decision.site_id))) return;
  await insertDelivery(trx, decision);
}

/** Cancel every queued delivery of one site (webhook disabled). Returns how many. */
export async function cancelPendingDeliveries(
  db: Executor,
  siteId: string,
  reason: string,
  nowMs: number = Date.now(),
): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', last_error: reason, lease_until: null, lease_owner: null, updated_at: nowMs })
    .where('site_id', '=', siteId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Cancel queued deliveries of every site whose workspace lost webhook access (plan downgrade).
 * Call it after changing a workspace's plan; the dispatcher also sweeps for this periodically.
 */
export async function cancelDeliveriesWithoutPlan(db: Executor, nowMs: number = Date.now()): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      status: 'cancelled',
      last_error: 'plan_required: the workspace plan no longer includes webhooks',
      lease_until: null,
      lease_owner: null,
      updated_at: nowMs,
    })
    .where('status', '=', 'pending')
    .where('site_id', 'in', (qb) =>
      qb
        .selectFrom('sites')
        .innerJoin('workspaces', 'workspaces.id', 'sites.workspace_id')
        .select('sites.id')
        .where('workspaces.demo', '=', 0)
        .where('workspaces.plan', 'not in', ['pro', 'enterprise']),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
