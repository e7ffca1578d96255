import { BoundedMemo } from './bounded-memo.ts';
import { parsePowFloor } from './challenge/difficulty.ts';
import { issueChallenge, powKey } from './challenge/index.ts';
import { verifyPowProof } from './challenge/proof.ts';
import type { AppContext } from './context.ts';
import { type DecisionLog, openDecisionLog } from './decisions/decision-log.ts';
import { HardwareProfileWrites } from './fingerprint/hardware.ts';
import { fingerprintTokenKey } from './fingerprint/token.ts';
import { ExpirySweeper } from './housekeeping/expiry-sweeper.ts';
import { AssetCache } from './http/asset-cache.ts';
import type { ScoringSite } from './http/site-auth.ts';
import { type ServiceMetrics, serviceMetrics } from './metrics.ts';
import { RuleStore } from './rules/store.ts';
import { createEngine, type EngineDeps } from './scoring/engine.ts';
import type { ScoringEngine } from './scoring/engine-types.ts';
import { knownBot } from './scoring/features.ts';
import { IdentityClusters, type IdentityService } from './scoring/identity.ts';
import { IpIntel } from './scoring/ip-intel.ts';
import { LocalSharedState, type LocalStateDeps } from './scoring/shared-state.ts';
import { StorageSpace } from './storage/storage-space.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import { OutboxSignal } from './webhooks/outbox.ts';
import { SiteChangeFeed } from './workspace/site-change-feed.ts';
import { SiteKeyCache } from './workspace/site-key-cache.ts';
import { allSiteIds } from './workspace/sites.ts';

/** The keys derived from the instance secret (HMAC keys of fingerprint tokens and challenges). */
export interface SigningKeys {
  fingerprintToken: Buffer;
  pow: Buffer;
}

/**
 * Every long-lived object of one Warden process, built once by `createServices` (the composition
 * root, called from main.ts's `createContext` and by the test context) and reached through
 * `ctx.services`. Nothing below `src/` keeps state in module variables: each cache is owned here,
 * and bounded (services.test.ts fails when a module-level singleton comes back).
 */
export interface Services {
  keys: SigningKeys;
  metrics: ServiceMetrics;
  /**
   * The decision log: the one owner of the `decisions` table, and its group-commit writer (a
   * `serve --workers` worker's commits go to the primary's writer, `ctx.worker.commit`).
   */
  decisions: DecisionLog;
  /** Custom rules and lists, compiled and cached per site. */
  rules: RuleStore;
  /** The cache of site-key lookups (http/site-auth.ts), told of every site change by `siteChanges`. */
  siteKeys: SiteKeyCache<ScoringSite>;
  /**
   * What sites.ts and workspaces.ts tell of a change: it clears `siteKeys` and tells the other
   * processes (NOTIFY on PostgreSQL, whose LISTEN connection it owns; the cluster's messages).
   */
  siteChanges: SiteChangeFeed;
  /** In-process wake-up of the webhook dispatcher when a delivery is queued. */
  outbox: OutboxSignal;
  /**
   * The identity graph: the engine updates it, the cluster routes read it (a `serve --workers`
   * worker's on the embedded default is the primary's, `ctx.worker.identity`).
   */
  identity: IdentityService;
  ipIntel: IpIntel;
  hardwareWrites: HardwareProfileWrites;
  memo: {
    /** isbot's answer per user agent. */
    knownBot: BoundedMemo<string, boolean>;
    /** `powFloor` per site settings text. */
    powFloor: BoundedMemo<string, number | undefined>;
  };
  assets: AssetCache;
  /**
   * Forgets expired idempotency keys and used challenges, and decisions and evidence past the
   * retention (started by the scoring routes).
   */
  sweeper: ExpirySweeper;
  /** Whether the database has room for writes (a full disk: /readyz and writes answer 503). */
  storage: StorageSpace;
  /** The scoring engine (built on first use: the scoring routes, or a test). */
  readonly engine: ScoringEngine;
  /** The webhook dispatcher (built on first use; `warden serve` starts it when the worker is on). */
  readonly dispatcher: WebhookDispatcher;
}

/** The context without its services: what `createServices` builds them from. */
export type BaseContext = Omit<AppContext, 'services'>;

export interface ServiceOptions {
  /** An IP intelligence instance to share (tests: one loaded table per test process). */
  ipIntel?: IpIntel;
  /** How long a site-key lookup is remembered (tests: long, so that only a change can end it). */
  siteKeyTtlMs?: number;
}

/** The composition root: every service of the process, built once from the base context. */
export function createServices(base: BaseContext, options: ServiceOptions = {}): Services {
  return withServices(base, options).services;
}

/** The context with its services (what main.ts and the test context hand to the app). */
export function withServices(base: BaseContext, options: ServiceOptions = {}): AppContext {
  const outbox = new OutboxSignal();
  let engine: ScoringEngine | undefined;
  let dispatcher: WebhookDispatcher | undefined;
  const siteKeys = new SiteKeyCache<ScoringSite>(options.siteKeyTtlMs);
  const metrics = serviceMetrics(base.metrics);
  const decisions = openDecisionLog(base.database, outbox, base.worker?.commit, metrics);
  const services: Services = {
    keys: { fingerprintToken: fingerprintTokenKey(base.secret), pow: powKey(base.secret) },
    metrics,
    decisions,
    rules: new RuleStore(base),
    siteKeys,
    siteChanges: new SiteChangeFeed(base.database, siteKeys, base.logger),
    outbox,
    identity: base.worker?.identity ?? new IdentityClusters(base),
    ipIntel: options.ipIntel ?? new IpIntel(base.config.ipDatabase),
    hardwareWrites: new HardwareProfileWrites(),
    memo: {
      knownBot: new BoundedMemo(10_000, knownBot),
      powFloor: new BoundedMemo(10_000, parsePowFloor),
    },
    assets: new AssetCache(),
    storage: new StorageSpace(base.now),
    sweeper: new ExpirySweeper({
      writes: () => decisions.writer.writes,
      logger: base.logger,
      now: base.now,
      retention: base.config.retention,
    }),
    get engine() {
      engine ??= createEngine(engineDeps(ctx));
      return engine;
    },
    get dispatcher() {
      dispatcher ??= new WebhookDispatcher(ctx);
      return dispatcher;
    },
  };
  const ctx: AppContext = { ...base, services };
  return ctx;
}

/**
 * What the scoring engine is built from (scoring/engine.ts `EngineDeps`), taken from the process's
 * context and services: the engine reaches nothing else. `identity`: the graph the engine's shared
 * state updates (default: the process's). Each call makes a new shared state (a test's restart).
 */
export function engineDeps(ctx: AppContext, identity: IdentityService = ctx.services.identity): EngineDeps {
  const { services } = ctx;
  return {
    rules: services.rules,
    // This process's shared state, or (a `serve --workers` worker) the primary's, one message per event.
    shared: ctx.worker?.sharedState?.(identity) ?? new LocalSharedState(localStateDeps(ctx), identity),
    get hotState() {
      return ctx.hotState;
    },
    challenges: { issue: (site, options) => issueChallenge(ctx, site, options) },
    ruleTimeBudgetMs: ctx.config.ruleTimeBudgetMs,
    get logger() {
      return ctx.logger;
    },
    tokenKey: services.keys.fingerprintToken,
    knownBot: services.memo.knownBot,
    ipIntel: services.ipIntel,
    verifyPow: (site, proof) => verifyPowProof(ctx, site, proof),
  };
}

/**
 * What this process's shared state (scoring/shared-state.ts) and its counters are built from. The
 * hot state, logger and clock are read from the context when used, as they were when the counters
 * took the whole context (a test may swap them).
 */
export function localStateDeps(ctx: AppContext): LocalStateDeps {
  return {
    get hotState() {
      return ctx.hotState;
    },
    get logger() {
      return ctx.logger;
    },
    now: () => ctx.now(),
    get decisions() {
      return ctx.services.decisions.history;
    },
    siteIds: () => allSiteIds(ctx.database.db),
  };
}
