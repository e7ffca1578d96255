import { randomUUID } from 'node:crypto';
import { planAllows } from '@warden/protocol/permissions';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../config.ts';
import type { Database, DB } from '../storage/db.ts';
import {
  type AttemptRecord,
  cancelDeliveriesOfDisabledWebhooks,
  claimDueDeliveries,
  completeAttempt,
  countPending,
  type EndpointState,
  loadEndpoints,
  releaseLeases,
} from './delivery-store.ts';
import { type WebhookMetrics, webhookMetrics } from './metrics.ts';
import {
  type ClaimedDelivery,
  cancelDeliveriesWithoutPlan,
  type HandedOffDelivery,
  type OutboxSignal,
} from './outbox.ts';
import { RequestDeadlines } from './request-deadlines.ts';
import { type LookupAll, resolveWebhookTarget, systemLookup, type UrlPolicy } from './safe-url.ts';
import { type AttemptOutcome, PinnedPools, sendAttempt } from './sender.ts';
import { SuccessBatcher } from './success-batcher.ts';

export const MAX_ATTEMPTS = 5;

export interface DispatcherOptions {
  /** Idle poll interval (ms); a kick() wakes the loop earlier. */
  pollIntervalMs?: number;
  /** Deliveries claimed per query. */
  batchSize?: number;
  /** Attempts in flight at once. */
  concurrency?: number;
  /** How long a claimed row stays reserved; must exceed the timeout. */
  leaseMs?: number;
  /** Per-attempt timeout (interface: 10 s). */
  timeoutMs?: number;
  /** Retry schedule base in seconds: base × (1, 2, 4, 8) + jitter. Defaults to config.webhookBackoffBaseS. */
  backoffBaseS?: number;
  /** Cancel sweeps and the queue-depth gauge (ms). */
  housekeepingIntervalMs?: number;
  lookup?: LookupAll;
  workerId?: string;
}

/** Delay before attempt `attempts + 1`: base × 2^(attempts−1) seconds plus up to 10 % jitter. */
export function retryDelayMs(
  baseS: number,
  attemptsSoFar: number,
  random: () => number = Math.random,
): number {
  const delay = baseS * 1000 * 2 ** (attemptsSoFar - 1);
  return Math.round(delay + delay * 0.1 * random());
}

/**
 * What a dispatcher works with, built by the composition root (services.ts `dispatcherDeps`): the
 * database it claims from, where its writes go (the decision writer's `writes`), the outbox that
 * wakes it and hands it new deliveries, its settings, logger, metrics registry and clock.
 */
export interface DispatcherDeps {
  readonly database: Pick<Database, 'db' | 'dialect'>;
  /** Claims and results: on a SQLite file they run in the decision writer thread. */
  readonly writes: Kysely<DB>;
  readonly outbox: Pick<OutboxSignal, 'onQueued' | 'attachHandoff'>;
  readonly config: Pick<Config, 'webhookBackoffBaseS' | 'unsafeWebhookTargets' | 'webhookPrivateSuffixes'>;
  /** DNS resolver for webhook URLs (default the system's). */
  readonly lookup?: LookupAll | undefined;
  readonly logger: Pick<Logger, 'error'>;
  readonly metrics: Registry;
  now(): number;
}

/** Claims due deliveries from the outbox and sends them; any number of workers may run. */
export class WebhookDispatcher {
  readonly workerId: string;
  private readonly metrics: WebhookMetrics;
  private readonly pools: PinnedPools;
  private readonly deadlines: RequestDeadlines;
  private readonly urlPolicy: UrlPolicy;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly opts: Required<Omit<DispatcherOptions, 'workerId'>>;
  private running = false;
  private loopDone: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private kicked = false;
  private lastHousekeeping = 0;
  private unsubscribe: (() => void) | null = null;
  private detachHandoff: (() => void) | null = null;
  /** Committed deliveries leased to this worker in memory (the outbox's hand-off), waiting for a slot. */
  private handedOff: HandedOffDelivery[] = [];
  private pumpScheduled = false;
  /**
   * The last claim found rows: more may be due (deliveries made by other processes, retries), so a
   * finished attempt wakes the loop. Not after an empty claim: deliveries handed over in memory
   * then cost no claim query each.
   */
  private backlog = false;
  private readonly successes: SuccessBatcher;
  /** Where the dispatcher's writes go (DecisionWriter.writes); reads use the database directly. */
  private readonly writes: Kysely<DB>;
  /** Free slots worth a claim query while deliveries are in flight. */
  private readonly claimThreshold: number;

  constructor(
    private readonly deps: DispatcherDeps,
    options: DispatcherOptions = {},
  ) {
    this.workerId = options.workerId ?? `worker-${randomUUID()}`;
    this.metrics = webhookMetrics(deps.metrics);
    // Claims and results are writes: on a SQLite file they run in the decision writer thread, so
    // this thread never waits for the write lock while a group commit holds it.
    this.writes = deps.writes;
    this.successes = new SuccessBatcher(this.writes, this.workerId, () => deps.now());
    this.opts = {
      pollIntervalMs: options.pollIntervalMs ?? 100,
      batchSize: options.batchSize ?? 200,
      concurrency: options.concurrency ?? 128,
      timeoutMs: options.timeoutMs ?? 10_000,
      leaseMs: options.leaseMs ?? Math.max(30_000, (options.timeoutMs ?? 10_000) * 3),
      backoffBaseS: options.backoffBaseS ?? deps.config.webhookBackoffBaseS,
      housekeepingIntervalMs: options.housekeepingIntervalMs ?? 1_000,
      lookup: options.lookup ?? deps.lookup ?? systemLookup,
    };
    this.urlPolicy = {
      unsafeTargets: deps.config.unsafeWebhookTargets,
      privateSuffixes: deps.config.webhookPrivateSuffixes,
    };
    this.pools = new PinnedPools(this.opts.timeoutMs);
    this.deadlines = new RequestDeadlines(this.opts.timeoutMs);
    this.claimThreshold = Math.max(1, Math.min(this.opts.batchSize, Math.floor(this.opts.concurrency / 4)));
  }

  private announceStarted: () => void = () => undefined;
  /** Settles when the loop has finished its first round (housekeeping and a claim). */
  readonly started = new Promise<void>((resolve) => {
    this.announceStarted = resolve;
  });

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.deps.outbox.onQueued(() => this.kick());
    // Deliveries committed in this process are written leased to this worker and handed over in
    // memory: the common case needs no claim query. Bounded: past 4 × concurrency waiting, new
    // deliveries are written unleased and claimed by the loop.
    this.detachHandoff = this.deps.outbox.attachHandoff({
      owner: this.workerId,
      leaseForNew: () =>
        this.running && this.handedOff.length < this.opts.concurrency * 4
          ? { owner: this.workerId, until: this.deps.now() + this.opts.leaseMs }
          : null,
      take: (deliveries) => {
        this.handedOff.push(...deliveries);
        this.pumpHandedOff();
      },
    });
    this.loopDone = this.loop();
  }

  /** Wake the loop now (a delivery was queued in this process). */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  /** Stop claiming, let attempts in flight finish, close connections. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    this.detachHandoff?.();
    this.wake?.();
    await this.loopDone;
    await Promise.all(this.inFlight);
    // Handed over but not started: due again at once for any worker.
    const unsent = this.handedOff.splice(0).map((d) => d.id);
    await releaseLeases(this.writes, this.workerId, unsent).catch((err: unknown) =>
      this.deps.logger.error({ err }, 'webhook dispatcher could not release its leases'),
    );
    await this.pools.close();
    this.deadlines.close();
  }

  /** One claim round (tests): claim what is due, send it all, wait for the results. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim(this.opts.batchSize);
    await Promise.all(claimed.map((c) => c.done));
    return claimed.length;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let claimedFull = false;
      try {
        await this.housekeeping();
        const free = this.opts.concurrency - this.inFlight.size;
        // Claim in batches: one claim query per finished delivery would cost a database round
        // trip per delivery. Wait for a quarter of the slots (or an idle worker) first.
        if (free >= this.claimThreshold || this.inFlight.size === 0) {
          const want = Math.min(free, this.opts.batchSize);
          const claimed = await this.claim(want);
          claimedFull = claimed.length === want;
          // Rows came from the table (made by another process, or retries): claim again as slots free.
          this.backlog = claimed.length > 0;
        }
      } catch (err) {
        this.deps.logger.error({ err }, 'webhook dispatcher round failed');
      }
      this.announceStarted();
      if (!this.running) break;
      if (claimedFull && this.opts.concurrency - this.inFlight.size >= this.claimThreshold) continue;
      await this.sleep(this.opts.pollIntervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.kicked) {
      this.kicked = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wake = null;
        self.kicked = false;
        resolve();
      }
      this.wake = done;
    });
  }

  private async housekeeping(): Promise<void> {
    const now = this.deps.now();
    if (now - this.lastHousekeeping < this.opts.housekeepingIntervalMs) return;
    this.lastHousekeeping = now;
    const cancelled =
      (await cancelDeliveriesWithoutPlan(this.writes, now)) +
      (await cancelDeliveriesOfDisabledWebhooks(this.writes, now));
    if (cancelled > 0) this.metrics.deliveries.inc({ status: 'cancelled' }, cancelled);
    this.metrics.queueDepth.set(await countPending(this.deps.database.db));
  }

  private async claim(limit: number): Promise<Array<{ done: Promise<void> }>> {
    const rows = await claimDueDeliveries(
      this.writes,
      this.deps.database.dialect,
      this.workerId,
      limit,
      this.deps.now(),
      this.opts.leaseMs,
    );
    return this.dispatch(rows);
  }

  /**
   * Start the handed-over deliveries that fit in the free slots. One whose lease would lapse before
   * its attempt could time out is left to the claim (it is due again when the lease lapses).
   */
  private pumpHandedOff(): void {
    this.pumpScheduled = false;
    const free = this.opts.concurrency - this.inFlight.size;
    if (!this.running || free <= 0 || this.handedOff.length === 0) return;
    const taken = this.handedOff.length <= free ? this.handedOff : this.handedOff.slice(0, free);
    this.handedOff = taken === this.handedOff ? [] : this.handedOff.slice(free);
    const latestStart = this.deps.now() + this.opts.timeoutMs;
    this.dispatch(taken.filter((d) => (d.lease_until ?? 0) > latestStart));
  }

  /** Send `rows` (leased to this worker), each in a slot, with their sites' current endpoints. */
  private dispatch(rows: readonly ClaimedDelivery[]): Array<{ done: Promise<void> }> {
    if (rows.length === 0) return [];
    const endpoints = loadEndpoints(this.deps.database.db, [...new Set(rows.map((r) => r.site_id))]);
    return rows.map((row) => {
      const done: Promise<void> = endpoints
        .then((byId) => this.process(row, byId.get(row.site_id)))
        .catch((err: unknown) =>
          this.deps.logger.error({ err, deliveryId: row.id }, 'webhook attempt failed'),
        )
        .finally(() => {
          this.inFlight.delete(done);
          this.slotFreed();
        });
      this.inFlight.add(done);
      return { done };
    });
  }

  /** A slot is free: handed-over deliveries first (in one batch per turn), else a claim if backlogged. */
  private slotFreed(): void {
    if (!this.running) return;
    if (this.handedOff.length > 0) {
      if (!this.pumpScheduled) {
        this.pumpScheduled = true;
        setImmediate(() => this.pumpHandedOff());
      }
    } else if (this.backlog) this.kick();
  }

  private async process(row: ClaimedDelivery, endpoint: EndpointState | undefined): Promise<void> {
    if (!endpoint?.enabled) {
      await this.finish(row, cancelled(row, 'the webhook is disabled', this.deps.now()));
      return;
    }
    if (!planAllows(endpoint, 'webhooks')) {
      await this.finish(
        row,
        cancelled(row, 'plan_required: the workspace plan no longer includes webhooks', this.deps.now()),
      );
      return;
    }
    const started = performance.now();
    const outcome = await this.attempt(row, endpoint);
    this.metrics.attemptDuration.observe((performance.now() - started) / 1000);
    this.metrics.attempts.inc({ outcome: outcome.ok ? 'success' : 'failure' });
    const attempts = row.attempts + 1;
    const now = this.deps.now();
    if (outcome.ok) {
      const recorded = await this.successes.add(row.id, outcome.statusCode ?? 200, outcome.responseBody);
      if (recorded) {
        this.metrics.deliveries.inc({ status: 'succeeded' });
        this.metrics.lag.observe(Math.max(0, now - row.decision_created_at) / 1000);
      }
      return;
    }
    const finalFailure = attempts >= MAX_ATTEMPTS;
    const record: AttemptRecord = {
      status: finalFailure ? 'failed' : 'pending',
      attempts,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error,
      lastResponseBody: outcome.responseBody,
      nextAttemptAt: finalFailure ? now : now + retryDelayMs(this.opts.backoffBaseS, attempts),
    };
    await this.finish(row, record);
  }

  private async attempt(row: ClaimedDelivery, endpoint: EndpointState): Promise<AttemptOutcome> {
    // SPEC §7: every attempt checks the URL again and connects only to the address it checked.
    const target = await resolveWebhookTarget(endpoint.url, this.urlPolicy, this.opts.lookup);
    if (!target.ok)
      return { ok: false, statusCode: null, error: `refused target: ${target.reason}`, responseBody: null };
    return sendAttempt({
      url: target.url,
      pool: this.pools.get(target.url.origin, target.address, target.family),
      deadlines: this.deadlines,
      deliveryId: row.id,
      payload: row.payload,
      secret: endpoint.secret,
      timeoutMs: this.opts.timeoutMs,
      nowMs: this.deps.now(),
    });
  }

  private async finish(row: ClaimedDelivery, record: AttemptRecord): Promise<boolean> {
    const recorded = await completeAttempt(this.writes, row.id, this.workerId, record, this.deps.now());
    if (recorded && record.status !== 'pending') this.metrics.deliveries.inc({ status: record.status });
    return recorded;
  }
}

function cancelled(row: ClaimedDelivery, reason: string, nowMs: number): AttemptRecord {
  return {
    status: 'cancelled',
    attempts: row.attempts,
    lastStatusCode: null,
    lastError: reason,
    lastResponseBody: null,
    nextAttemptAt: nowMs,
  };
}
