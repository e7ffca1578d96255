import { createHash } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { IdentitySummary } from './engine-types.ts';

/**
 * Identity clusters (SPEC §2, §10): accounts linked by a shared device id, payment hash, or a
 * recent low-fan-out IP (at most IP_FANOUT accounts, both seen within IP_RECENT_MS). Union-find
 * in memory per site, rebuilt from `decisions` on first use per site and refreshed from it every
 * REFRESH_MS (events recorded by other processes). The root of a cluster is always its earliest
 * member, so `cluster_id` stays the same as the cluster grows (it changes only for the younger
 * side of a merge of two existing clusters).
 */
export const IP_FANOUT = 3;
export const IP_RECENT_MS = 7 * 24 * 60 * 60 * 1000;
const REFRESH_MS = 30_000;
const LOAD_LIMIT = 500_000;

interface Account {
  parent: string;
  first: number;
  /** Valid on roots only. */
  size: number;
  sharedDevices: number;
  sharedPayments: number;
  sharedIps: number;
}

interface IpUse {
  accounts: Map<string, number>;
  crowded: boolean;
  shared: boolean;
}

export interface IdentityEvent {
  accountId: string;
  deviceId: string;
  paymentHash: string;
  ip: string;
  at: number;
}

export class SiteGraph {
  private readonly accounts = new Map<string, Account>();
  /** device or payment → accounts using it (kept small: one is enough to link). */
  private readonly devices = new Map<string, { first: string; count: number; members: Set<string> }>();
  private readonly paymentsUsed = new Map<string, { first: string; count: number; members: Set<string> }>();
  private readonly ips = new Map<string, IpUse>();

  constructor(private readonly siteId: string) {}

  private account(id: string, at: number): Account {
    let a = this.accounts.get(id);
    if (!a) {
      a = { parent: id, first: at, size: 1, sharedDevices: 0, sharedPayments: 0, sharedIps: 0 };
      this.accounts.set(id, a);
    } else if (at < a.first) a.first = at;
    return a;
  }

  find(id: string): string {
    let root = id;
    for (let a = this.accounts.get(root); a && a.parent !== root; a = this.accounts.get(root))
      root = a.parent;
    // Path compression.
    let cur = id;
    while (cur !== root) {
      const a = this.accounts.get(cur)!;
      const next = a.parent;
      a.parent = root;
      cur = next;
    }
    return root;
  }

  private union(x: string, y: string): void {
    const rx = this.find(x);
    const ry = this.find(y);
    if (rx === ry) return;
    const ax = this.accounts.get(rx)!;
    const ay = this.accounts.get(ry)!;
    // The earliest member's root wins (ties: smaller id), so cluster ids are stable.
    const xWins = ax.first < ay.first || (ax.first === ay.first && rx < ry);
    const [root, child] = xWins ? [ax, ay] : [ay, ax];
    child.parent = xWins ? rx : ry;
    root.size += child.size;
    root.sharedDevices += child.sharedDevices;
    root.sharedPayments += child.sharedPayments;
    root.sharedIps += child.sharedIps;
  }

  private link(
    table: Map<string, { first: string; count: number; members: Set<string> }>,
    value: string,
    accountId: string,
    counter: 'sharedDevices' | 'sharedPayments',
  ): void {
    const use = table.get(value);
    if (!use) {
      table.set(value, { first: accountId, count: 1, members: new Set([accountId]) });
      return;
    }
    if (use.members.has(accountId)) return;
    if (use.members.size < 64) use.members.add(accountId);
    use.count++;
    this.union(use.first, accountId);
    if (use.count === 2) this.accounts.get(this.find(accountId))![counter]++;
  }

  observe(e: IdentityEvent): void {
    if (!e.accountId) return;
    this.account(e.accountId, e.at);
    if (e.deviceId) this.link(this.devices, e.deviceId, e.accountId, 'sharedDevices');
    if (e.paymentHash) this.link(this.paymentsUsed, e.paymentHash, e.accountId, 'sharedPayments');
    if (e.ip) this.observeIp(e);
  }

  private observeIp(e: IdentityEvent): void {
    let use = this.ips.get(e.ip);
    if (!use) {
      use = { accounts: new Map(), crowded: false, shared: false };
      this.ips.set(e.ip, use);
    }
    if (use.crowded) return;
    const known = use.accounts.has(e.accountId);
    use.accounts.set(e.accountId, Math.max(e.at, use.accounts.get(e.accountId) ?? 0));
    if (known) return;
    if (use.accounts.size > IP_FANOUT) {
      // A crowded address (office, carrier NAT): stop linking through it; earlier links stay.
      use.crowded = true;
      use.accounts.clear();
      return;
    }
    for (const [other, seen] of use.accounts) {
      if (other === e.accountId || Math.abs(e.at - seen) > IP_RECENT_MS) continue;
      this.union(other, e.accountId);
      if (!use.shared) {
        use.shared = true;
        this.accounts.get(this.find(e.accountId))!.sharedIps++;
      }
    }
  }

  summary(accountId: string): IdentitySummary {
    const root = this.accounts.has(accountId) ? this.find(accountId) : accountId;
    const r = this.accounts.get(root);
    return {
      cluster_id: `cl_${createHash('sha256').update(`${this.siteId}\n${root}`).digest('hex').slice(0, 20)}`,
      linked_accounts: r ? r.size - 1 : 0,
      shared_devices: r?.sharedDevices ?? 0,
      shared_ips: r?.sharedIps ?? 0,
      shared_payments: r?.sharedPayments ?? 0,
    };
  }
}

interface SiteState {
  graph: SiteGraph;
  ready: Promise<void>;
  watermark: number;
  refreshedAt: number;
  refreshing: boolean;
}

/** Per-site graphs of one process. */
export class IdentityClusters {
  private readonly sites = new Map<string, SiteState>();

  constructor(private readonly ctx: AppContext) {}

  /** Add this event's links and answer the account's cluster. */
  async observe(siteId: string, e: IdentityEvent): Promise<IdentitySummary> {
    const state = this.site(siteId);
    await state.ready;
    this.maybeRefresh(siteId, state);
    state.graph.observe(e);
    return state.graph.summary(e.accountId);
  }

  private site(siteId: string): SiteState {
    let state = this.sites.get(siteId);
    if (!state) {
      const now = this.ctx.now();
      const s: SiteState = {
        graph: new SiteGraph(siteId),
        ready: Promise.resolve(),
        watermark: 0,
        refreshedAt: now,
        refreshing: false,
      };
      s.ready = this.load(siteId, s).catch((err: unknown) => {
        this.ctx.logger.warn({ err, siteId }, 'identity rebuild failed; linking from now');
      });
      this.sites.set(siteId, s);
      state = s;
    }
    return state;
  }

  private maybeRefresh(siteId: string, state: SiteState): void {
    const now = this.ctx.now();
    if (state.refreshing || now - state.refreshedAt < REFRESH_MS) return;
    state.refreshing = true;
    state.refreshedAt = now;
    this.load(siteId, state)
      .catch((err: unknown) => this.ctx.logger.warn({ err, siteId }, 'identity refresh failed'))
      .finally(() => {
        state.refreshing = false;
      });
  }

  /** Load decisions after the watermark (re-reading 5 s of overlap: observing twice is harmless). */
  private async load(siteId: string, state: SiteState): Promise<void> {
    const since = state.watermark === 0 ? 0 : state.watermark - 5_000;
    const rows = await this.ctx.database.db
      .selectFrom('decisions')
      .select(['account_id', 'device_id', 'payment_hash', 'ip_address', 'created_at'])
      .where('site_id', '=', siteId)
      .where('created_at', '>=', since)
      .orderBy('created_at', 'asc')
      .limit(LOAD_LIMIT)
      .execute();
    for (const r of rows) {
      state.graph.observe({
        accountId: r.account_id,
        deviceId: r.device_id,
        paymentHash: r.payment_hash ?? '',
        ip: r.ip_address,
        at: r.created_at,
      });
      if (r.created_at > state.watermark) state.watermark = r.created_at;
    }
  }
}
