import type { Signal } from '@warden/protocol';
import { plansWith } from '@warden/protocol/permissions';
import { type Kysely, type SqlBool, sql, type Transaction } from 'kysely';
import { timeOrderedId } from '../decisions/decision-id.ts';
import type { DB } from '../storage/db.ts';
import type { WebhookDeliveriesTable } from '../storage/webhook-schema.ts';
import { type DecisionForPayload, decisionCreatedData, serializeDecisionCreated } from './payload.ts';

type Executor = Kysely<DB> | Transaction<DB>;

/** A delivery row as the dispatcher sends it (claimed from the table or handed off in memory). */
export type ClaimedDelivery = Pick<
  WebhookDeliveriesTable,
  'id' | 'site_id' | 'decision_id' | 'payload' | 'attempts' | 'decision_created_at'
>;

/** A committed delivery handed to the dispatcher it is leased to. */
export type HandedOffDelivery = ClaimedDelivery & Pick<WebhookDeliveriesTable, 'lease_until'>;

/** The lease a new delivery is written with when a dispatcher of this process will send it. */
export interface NewDeliveryLease {
  owner: string;
  until: number;
}

/**
 * `status = 'pending'` with the value written into the SQL: the indexes of pending deliveries are
 * partial (migration 021), and a partial index serves only queries that name its condition as
 * written (a bound parameter would not do).
 */
export const STATUS_IS_PENDING = sql<SqlBool>`status = 'pending'`;

/**
 * A dispatcher of this process that takes freshly committed deliveries from memory: they are
 * written already leased to it (`leaseForNew`), so no claim query is needed to send them, and a
 * crash before they are sent only delays them until the lease lapses and any worker claims them.
 */
export interface DeliveryHandoff {
  /** The lease for deliveries bound now, or null when this dispatcher takes none now. */
  leaseForNew(nowMs: number): NewDeliveryLease | null;
  /** Deliveries committed with a lease of this dispatcher's. */
  take(deliveries: HandedOffDelivery[]): void;
  readonly owner: string;
}

/**
 * In-process wake-up and hand-off (one per process, services.ts: `outbox`). A dispatcher in this
 * process attaches itself: deliveries are then written leased to it and handed to it once
 * committed (`committed`); deliveries without that lease only kick it awake, shortly after they
 * are queued (the kick is deferred, so it usually lands after the caller's commit; when it does
 * not, the dispatcher's short poll picks the row up anyway).
 */
export class OutboxSignal {
  private readonly listeners = new Set<() => void>();
  private kickScheduled = false;
  private handoff: DeliveryHandoff | null = null;

  onQueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One dispatcher per process takes hand-offs (the first to attach); returns the detach. */
  attachHandoff(handoff: DeliveryHandoff): () => void {
    if (this.handoff) return () => undefined;
    this.handoff = handoff;
    return () => {
      if (this.handoff === handoff) this.handoff = null;
    };
  }

  /** The lease to write new deliveries with (null: written unleased, claimed by a poll). */
  leaseForNew(nowMs: number): NewDeliveryLease | null {
    return this.handoff?.leaseForNew(nowMs) ?? null;
  }

  /**
   * Deliveries whose commit is done: those leased to the attached dispatcher are handed to it,
   * the others wake the dispatchers to claim them.
   */
  committed(deliveries: readonly WebhookDeliveriesTable[]): void {
    const handoff = this.handoff;
    const leased: HandedOffDelivery[] = [];
    let unleased = 0;
    for (const d of deliveries) {
      if (handoff && d.lease_owner === handoff.owner) leased.push(d);
      else unleased++;
    }
    if (leased.length > 0) handoff!.take(leased);
    if (unleased > 0) this.queued();
  }

  queued(): void {
    if (this.kickScheduled || this.listeners.size === 0) return;
    this.kickScheduled = true;
    setTimeout(() => {
      this.kickScheduled = false;
      for (const listener of this.listeners) listener();
    }, 1);
  }
}

/**
 * One row when the site's webhook is enabled and its workspace may use webhooks (plan, or the demo
 * workspace); none otherwise. The decision writer runs it inside its commit.
 */
export function webhookActiveQuery(db: Executor, siteId: string) {
  return activeWebhooks(db).where('webhooks.site_id', '=', siteId);
}

/**
 * PostgreSQL: the sites among `siteIds` (one array parameter) whose webhook is active, as
 * `webhookActiveQuery` decides it: one query for a group commit's sites.
 */
export function webhooksActiveAmongQuery(db: Executor, siteIds: readonly string[] | string) {
  return activeWebhooks(db).where('webhooks.site_id', '=', sql<string>`any(${siteIds})`);
}

function activeWebhooks(db: Executor) {
  return db
    .selectFrom('webhooks')
    .innerJoin('sites', 'sites.id', 'webhooks.site_id')
    .innerJoin('workspaces', 'workspaces.id', 'sites.workspace_id')
    .select('webhooks.site_id')
    .where('webhooks.enabled', '=', 1)
    .where((eb) =>
      eb.or([eb('workspaces.demo', '=', 1), eb('workspaces.plan', 'in', [...plansWith('webhooks')])]),
    );
}

export async function webhookIsActive(db: Executor, siteId: string): Promise<boolean> {
  return (await webhookActiveQuery(db, siteId).executeTakeFirst()) !== undefined;
}

/**
 * A new pending `decision.created` delivery of `decision`. Its id (the event's `id`) is a
 * time-ordered UUID like the decision's: new rows land at the right-hand end of the primary-key
 * index instead of on a random page of it (bench/writer.ts). `signalsInMemory`: the array the
 * decision's `signals` column was serialised from, when the caller has it (not parsed again).
 * `lease`: written already leased to the dispatcher that will be handed it (OutboxSignal).
 */
export function deliveryRow(
  decision: DecisionForPayload,
  nowMs: number,
  signalsInMemory?: readonly Signal[],
  lease?: NewDeliveryLease | null,
): WebhookDeliveriesTable {
  const id = timeOrderedId(nowMs);
  return {
    id,
    site_id: decision.site_id,
    decision_id: decision.id,
    payload: serializeDecisionCreated(id, nowMs, decisionCreatedData(decision, signalsInMemory)),
    status: 'pending',
    attempts: 0,
    last_status_code: null,
    last_error: null,
    last_response_body: null,
    next_attempt_at: nowMs,
    lease_until: lease?.until ?? null,
    lease_owner: lease?.owner ?? null,
    decision_created_at: decision.created_at,
    created_at: nowMs,
    updated_at: nowMs,
  };
}

/** Insert one pending delivery of `decision` (no checks). Returns the new delivery id. */
export async function insertDelivery(
  db: Executor,
  decision: DecisionForPayload,
  nowMs: number,
  outbox: OutboxSignal,
): Promise<string> {
  const row = deliveryRow(decision, nowMs);
  await db.insertInto('webhook_deliveries').values(row).execute();
  outbox.queued();
  return row.id;
}

/**
 * Forget every delivery of these decisions (the decision retention deletes them: an outbox row
 * never outlives its decision). On the index by decision. Returns how many.
 */
export async function deleteDeliveriesOfDecisions(
  db: Executor,
  decisionIds: readonly string[],
): Promise<number> {
  if (decisionIds.length === 0) return 0;
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('decision_id', 'in', [...decisionIds])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Cancel the queued deliveries of these sites. Finding the sites first keeps the update on the
 * index of pending deliveries by site: it never walks the whole pending backlog. Returns how many.
 */
export async function cancelPendingOfSites(
  db: Executor,
  siteIds: readonly string[],
  reason: string,
  nowMs: number = Date.now(),
): Promise<number> {
  if (siteIds.length === 0) return 0;
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', last_error: reason, lease_until: null, lease_owner: null, updated_at: nowMs })
    .where('site_id', 'in', [...siteIds])
    .where(STATUS_IS_PENDING)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Cancel every queued delivery of one site (webhook disabled). Returns how many. */
export function cancelPendingDeliveries(
  db: Executor,
  siteId: string,
  reason: string,
  nowMs: number = Date.now(),
): Promise<number> {
  return cancelPendingOfSites(db, [siteId], reason, nowMs);
}

/**
 * Cancel queued deliveries of every site whose workspace lost webhook access (plan downgrade).
 * Call it after changing a workspace's plan; the dispatcher also sweeps for this periodically.
 */
export async function cancelDeliveriesWithoutPlan(db: Executor, nowMs: number = Date.now()): Promise<number> {
  const sites = await db
    .selectFrom('webhooks')
    .innerJoin('sites', 'sites.id', 'webhooks.site_id')
    .innerJoin('workspaces', 'workspaces.id', 'sites.workspace_id')
    .select('webhooks.site_id')
    .where('workspaces.demo', '=', 0)
    .where('workspaces.plan', 'not in', ['pro', 'enterprise'])
    .execute();
  return cancelPendingOfSites(
    db,
    sites.map((s) => s.site_id),
    'plan_required: the workspace plan no longer includes webhooks',
    nowMs,
  );
}
