import type { MaybePromise, RateLimitResult } from '../state/hot-state.ts';
import { allOf, isPromise } from '../state/hot-state.ts';
import { type BrowserSession, readBrowserSession } from './browser-session.ts';
import type { CounterEvent, HistoryCounts } from './counter-ops.ts';
import type { IdentitySummary } from './engine-types.ts';
import { History, type HistoryDeps } from './history.ts';
import type { IdentityService } from './identity.ts';

/**
 * Everything one event asks of the shared state (hot-state counters, its nonce, the identity
 * graph, its token's browser session), as plain data: in a `serve --workers N` worker it is the
 * one message to the primary that owns that state (cluster/owner.ts), which answers a StateAnswer.
 */
export interface StateQuery {
  siteId: string;
  now: number;
  /** The event's counter facts (counter-ops.ts); `hardwareProfile` "" while `profileOf` is set. */
  counters: CounterEvent;
  /** A token's device whose remembered hardware profile is looked up first (payment events), or "". */
  profileOf: string;
  /** environment.nonce, claimed as used ("" when none). */
  nonce: string;
  /**
   * Update the identity clusters with the event (its account, device, payment hash and IP are the
   * counters') and answer the account's cluster.
   */
  identity: boolean;
  /** A rate limit the event passes first: when it refuses, nothing else is counted or claimed. */
  limit?: [key: string, limit: number, windowMs: number];
}

export interface StateAnswer {
  counts: HistoryCounts;
  nonceFresh: boolean;
  /** The hardware profile counted ("" when none). */
  profile: string;
  identity?: IdentitySummary;
  session: BrowserSession | null;
  /** The rate limit's answer (when the query had one); refused: nothing else is set. */
  admitted?: RateLimitResult;
}

/** Where observe (observe.ts) gets an event's shared state: this process's, or the primary's. */
export interface SharedState {
  observe(q: StateQuery): MaybePromise<StateAnswer>;
  /** Rebuild every site's counters now rather than on first use (start-up; a no-op when remote). */
  prepare(): Promise<void>;
}

/** What this process's shared state is built from (the composition root: services.ts). */
export interface LocalStateDeps extends HistoryDeps {
  /** Every site's id: `prepare` rebuilds each site's counters. */
  siteIds(): Promise<readonly string[]>;
}

/**
 * The shared state of this process: hot state (in-process, or Redis in scale mode) through
 * history.ts, and the identity graph. The primary of `serve --workers N` answers its workers'
 * queries with one of these.
 */
export class LocalSharedState implements SharedState {
  readonly history: History;

  constructor(
    private readonly deps: LocalStateDeps,
    private readonly identity: IdentityService | undefined,
  ) {
    this.history = new History(deps);
  }

  observe(q: StateQuery): MaybePromise<StateAnswer> {
    if (!q.limit) return this.count(q);
    const [key, limit, windowMs] = q.limit;
    return this.deps.hotState.rateLimit(key, limit, windowMs).then(async (admitted) => {
      if (!admitted.allowed) return { admitted } as StateAnswer;
      return { ...(await this.count(q)), admitted };
    });
  }

  async prepare(): Promise<void> {
    for (const siteId of await this.deps.siteIds()) await this.history.ensureRebuilt(siteId);
  }

  /** Counters, nonce and hardware profile first; then the identity clusters and the browser session. */
  private count(q: StateQuery): MaybePromise<StateAnswer> {
    const { siteId, counters: c } = q;
    const profile: string | Promise<string> = q.profileOf
      ? this.history.hardwareProfile(siteId, q.profileOf).catch(() => '')
      : c.hardwareProfile;
    const counted = allOf([
      this.history.observe({ siteId, ...c, hardwareProfile: profile }, q.now),
      q.nonce ? this.history.claimNonce(siteId, q.nonce) : true,
      profile,
    ] as const);
    return isPromise(counted)
      ? counted.then((r) => this.afterCounting(q, r))
      : this.afterCounting(q, counted);
  }

  private afterCounting(
    q: StateQuery,
    [counts, nonceFresh, profile]: readonly [HistoryCounts, boolean, string],
  ): MaybePromise<StateAnswer> {
    const c = q.counters;
    const identity = q.identity
      ? this.identityService().observe(q.siteId, {
          accountId: c.accountId,
          deviceId: c.deviceId,
          paymentHash: c.paymentHash,
          ip: c.ip,
          at: q.now,
        })
      : undefined;
    const session = readBrowserSession(this.deps.hotState, q.siteId, c.tokenId);
    const answer = (id: IdentitySummary | undefined, s: BrowserSession | null): StateAnswer =>
      id
        ? { counts, nonceFresh, profile, identity: id, session: s }
        : { counts, nonceFresh, profile, session: s };
    const both = allOf([identity, session] as const);
    return isPromise(both) ? both.then(([id, s]) => answer(id, s)) : answer(both[0], both[1]);
  }

  private identityService(): IdentityService {
    if (!this.identity) throw new Error('this process keeps no identity graph');
    return this.identity;
  }
}
