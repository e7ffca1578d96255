import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from 'pino';
import { type Config, MEMORY_SHARES } from '../config.ts';
import { HistoryDecisions } from '../decisions/history-queries.ts';
import type { Database } from '../storage/db.ts';
import type { IdentitySummary } from './engine-types.ts';
import type { Member } from './identity-entries.ts';
import { type IdentityEvent, IdentityGraph } from './identity-graph.ts';

export type { IdentityEvent } from './identity-graph.ts';
export { IP_FANOUT, IP_RECENT_MS } from './identity-graph.ts';

/**
 * Identity clusters of one process (SPEC §2, §10) around the budgeted graph of
 * `identity-graph.ts`. Each scored event updates the graph in place (a few map operations). What
 * the graph needs from earlier runs is read from `decisions` once per site, the first time the
 * site is seen: at most LOAD_ROWS_MAX recent rows (LOAD_WINDOW_MS), in chunks of CHUNK_ROWS with
 * a turn of the event loop between chunks. No later full reload happens.
 *
 * Several processes on one PostgreSQL database (scale mode) each keep their own graph; a process
 * sees the others' links by reading the rows recorded since its cursor (at most once per
 * POLL_MS per site, only while the site is being scored or viewed, in the same chunks, re-reading
 * POLL_OVERLAP_MS for rows committed late). Observing a row twice changes nothing. On SQLite one
 * process records every decision it scores, so it polls nothing.
 */
export const CHUNK_ROWS = 250;
export const LOAD_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
const POLL_MS = 1_000;
const POLL_OVERLAP_MS = 2_000;
/** How long a decision waits for its site's first load before scoring with what is known. */
const LOAD_WAIT_MS = 2_000;
/** Rows loaded per site at start: about what the budget can hold (an event is ~1–4 entries). */
const BYTES_PER_LOADED_ROW = 150;

/** The identity graph's budget: its share (MEMORY_SHARES.identity) of WARDEN_MEMORY_MB. */
export function identityBudgetBytes(config: Pick<Config, 'memoryBudgetBytes'>): number {
  return Math.floor(config.memoryBudgetBytes * MEMORY_SHARES.identity);
}

export function clusterIdOf(siteId: string, key: string): string {
  return `cl_${createHash('sha256').update(`${siteId}\n${key}`).digest('hex').slice(0, 20)}`;
}

/** What the identity graph is built from: its memory budget, the database it loads from, a clock. */
export interface IdentityDeps {
  readonly config: Pick<Config, 'memoryBudgetBytes'>;
  readonly database: Database;
  readonly logger: Pick<Logger, 'warn'>;
  now(): number;
}

export interface IdentityOptions {
  budgetBytes?: number;
  /** Read other processes' decisions (default: on PostgreSQL). */
  poll?: boolean;
  chunkRows?: number;
}

/** A cluster as the graph knows it now. */
export interface ClusterView {
  id: string;
  /** Remembered members (at most the limit asked for). */
  accounts: string[];
  summary: IdentitySummary;
}

interface Cursor {
  at: number;
  id: string;
}

interface SiteState {
  no: number;
  ready: Promise<void>;
  loaded: boolean;
  cursor: Cursor;
  polledAt: number;
  polling: Promise<void> | null;
}

export interface IdentityLoadStats {
  /** Queries run against `decisions` (start loads and polls). */
  queries: number;
  /** Rows read by them. */
  rows: number;
  /** The most rows one query returned. */
  largestChunk: number;
}

/**
 * What scoring and the cluster routes use of the identity clusters: the process's own graph
 * (IdentityClusters) or, in a `serve --workers` worker, the primary's (cluster/worker.ts).
 */
export interface IdentityService {
  observe(siteId: string, e: IdentityEvent): Promise<IdentitySummary>;
  clusterOf(siteId: string, accountIds: readonly string[], limit: number): Promise<ClusterView | null>;
}

export class IdentityClusters implements IdentityService {
  readonly graph: IdentityGraph;
  readonly load: IdentityLoadStats = { queries: 0, rows: 0, largestChunk: 0 };
  private readonly sites = new Map<string, SiteState>();
  private readonly poll: boolean;
  private readonly chunkRows: number;
  private readonly loadRowsMax: number;
  /** The decision log's queries this graph loads and polls with (over the context's database). */
  private readonly decisions: HistoryDecisions;

  constructor(
    private readonly deps: IdentityDeps,
    options: IdentityOptions = {},
  ) {
    const budget = options.budgetBytes ?? identityBudgetBytes(deps.config);
    this.graph = new IdentityGraph(budget);
    this.poll = options.poll ?? deps.database.dialect === 'postgres';
    this.chunkRows = options.chunkRows ?? CHUNK_ROWS;
    this.loadRowsMax = Math.max(this.chunkRows, Math.floor(budget / BYTES_PER_LOADED_ROW));
    this.decisions = new HistoryDecisions(deps.database);
  }

  /** Add this event's links and answer the account's cluster. */
  async observe(siteId: string, e: IdentityEvent): Promise<IdentitySummary> {
    const state = this.site(siteId);
    if (!state.loaded) await waitAtMost(state.ready, LOAD_WAIT_MS);
    this.maybePoll(siteId, state);
    const m = this.graph.observe(state.no, e);
    return m ? this.summaryOf(siteId, m) : this.lone(siteId, e.accountId);
  }

  /**
   * The current cluster of the first of `accountIds` the graph remembers (the accounts a cluster
   * id was recorded on: an old id resolves to the cluster it merged into). Null when the graph
   * remembers none of them.
   */
  async clusterOf(siteId: string, accountIds: readonly string[], limit: number): Promise<ClusterView | null> {
    const state = this.site(siteId);
    await state.ready;
    if (this.poll) await this.pollNow(siteId, state);
    for (const id of accountIds) {
      const m = this.graph.peek(state.no, id);
      if (!m) continue;
      const summary = this.summaryOf(siteId, m);
      return { id: summary.cluster_id, accounts: this.graph.members(m, limit), summary };
    }
    return null;
  }

  private summaryOf(siteId: string, m: Member): IdentitySummary {
    const c = this.graph.counts(m);
    return {
      cluster_id: clusterIdOf(siteId, c.key),
      linked_accounts: Math.max(0, c.size - 1),
      shared_devices: Math.max(0, c.devices),
      shared_ips: Math.max(0, c.ips),
      shared_payments: Math.max(0, c.payments),
    };
  }

  private lone(siteId: string, accountId: string): IdentitySummary {
    return {
      cluster_id: clusterIdOf(siteId, accountId),
      linked_accounts: 0,
      shared_devices: 0,
      shared_ips: 0,
      shared_payments: 0,
    };
  }

  private site(siteId: string): SiteState {
    let state = this.sites.get(siteId);
    if (!state) {
      const s: SiteState = {
        no: this.sites.size,
        ready: Promise.resolve(),
        loaded: false,
        cursor: { at: 0, id: '' },
        polledAt: this.deps.now(),
        polling: null,
      };
      s.ready = this.loadSite(siteId, s)
        .catch((err: unknown) => {
          this.deps.logger.warn({ err, siteId }, 'identity load failed; linking from now');
        })
        .finally(() => {
          s.loaded = true;
        });
      this.sites.set(siteId, s);
      state = s;
    }
    return state;
  }

  /**
   * The site's recent history, oldest first: the start is found by stepping back from the newest
   * row (index only) at most loadRowsMax rows or to LOAD_WINDOW_MS, whichever comes first.
   */
  private async loadSite(siteId: string, state: SiteState): Promise<void> {
    const now = this.deps.now();
    const start = await this.loadStart(siteId, now - LOAD_WINDOW_MS);
    state.cursor = start;
    await this.readSince(siteId, state, start);
  }

  private async loadStart(siteId: string, since: number): Promise<Cursor> {
    let before: Cursor | null = null;
    let skipped = 0;
    const step = this.chunkRows * 10;
    while (skipped < this.loadRowsMax) {
      const row = await this.decisions.stepBack(siteId, since, before, step);
      this.load.queries++;
      if (!row) return { at: since, id: '' };
      before = row;
      skipped += step;
      await yieldToLoop();
    }
    // Everything after the row found is loaded.
    return before ?? { at: since, id: '' };
  }

  /** Observe every row after `from`, chunk by chunk, moving the site's cursor along. */
  private async readSince(siteId: string, state: SiteState, from: Cursor): Promise<void> {
    let after = from;
    for (;;) {
      const rows = await this.decisions.identityRowsAfter(siteId, after, this.chunkRows);
      this.load.queries++;
      this.load.rows += rows.length;
      if (rows.length > this.load.largestChunk) this.load.largestChunk = rows.length;
      for (const r of rows) {
        const at = Number(r.created_at);
        this.graph.observe(state.no, {
          accountId: r.account_id,
          deviceId: r.device_id,
          paymentHash: r.payment_hash ?? '',
          ip: r.ip_address,
          at,
        });
        after = { at, id: r.id };
      }
      if (after.at > state.cursor.at) state.cursor = after;
      if (rows.length < this.chunkRows) return;
      await yieldToLoop();
    }
  }

  private maybePoll(siteId: string, state: SiteState): void {
    if (!this.poll || !state.loaded || state.polling) return;
    if (this.deps.now() - state.polledAt < POLL_MS) return;
    void this.pollNow(siteId, state);
  }

  /** Read what other processes recorded since the cursor (overlapping by POLL_OVERLAP_MS). */
  private pollNow(siteId: string, state: SiteState): Promise<void> {
    if (state.polling) return state.polling;
    state.polledAt = this.deps.now();
    const from = { at: state.cursor.at - POLL_OVERLAP_MS, id: '' };
    state.polling = this.readSince(siteId, state, from)
      .catch((err: unknown) => this.deps.logger.warn({ err, siteId }, 'identity poll failed'))
      .finally(() => {
        state.polling = null;
      });
    return state.polling;
  }
}

async function waitAtMost(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    p,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}
