import { AssetCache } from './asset-cache.ts';
import { BoundedMemo } from './bounded-memo.ts';
import { parsePowFloor } from './challenge/difficulty.ts';
import { issueChallenge, powKey } from './challenge/index.ts';
import { verifyPowProof } from './challenge/proof.ts';
import type { AppContext, BaseContext, Services } from './context.ts';
import { openDecisionLog } from './decisions/open-decision-log.ts';
import { HardwareProfileWrites } from './fingerprint/hardware.ts';
import { fingerprintTokenKey } from './fingerprint/token.ts';
import { ExpirySweeper } from './housekeeping/expiry-sweeper.ts';
import { serviceMetrics } from './metrics.ts';
import { RuleStore } from './rules/store.ts';
import { createEngine, type EngineDeps } from './scoring/engine.ts';
import type { ScoringEngine } from './scoring/engine-types.ts';
import { knownBot } from './scoring/features.ts';
import { IdentityClusters, type IdentityService } from './scoring/identity.ts';
import { IpIntel } from './scoring/ip-intel.ts';
import { LocalSharedState, type LocalStateDeps } from './scoring/shared-state.ts';
import { deviceEvidenceRisk } from './scoring/signals/device-carry.ts';
import { evidenceRisk } from './scoring/signals/session.ts';
import { StorageSpace } from './storage/storage-space.ts';
import { type DispatcherDeps, WebhookDispatcher } from './webhooks/dispatcher.ts';
import { OutboxSignal } from './webhooks/outbox.ts';
import { type ScoringSite, ScoringSites } from './workspace/scoring-sites.ts';
import { SiteChangeFeed } from './workspace/site-change-feed.ts';
import { SiteKeyCache } from './workspace/site-key-cache.ts';
import { allSiteIds } from './workspace/sites.ts';

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
    sites: new ScoringSites({
      get database() {
        return ctx.database;
      },
      siteKeys,
      now: () => ctx.now(),
    }),
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
      dispatcher ??= new WebhookDispatcher(dispatcherDeps(ctx));
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
  return liveView<Omit<EngineDeps, keyof LiveView>>(ctx, {
    rules: services.rules,
    // This process's shared state, or (a `serve --workers` worker) the primary's, one message per event.
    shared: ctx.worker?.sharedState?.(identity) ?? new LocalSharedState(localStateDeps(ctx), identity),
    challenges: { issue: (site, options) => issueChallenge(ctx, site, options) },
    ruleTimeBudgetMs: ctx.config.ruleTimeBudgetMs,
    tokenKey: services.keys.fingerprintToken,
    knownBot: services.memo.knownBot,
    ipIntel: services.ipIntel,
    verifyPow: (site, proof) => verifyPowProof(ctx, site, proof),
  });
}

/**
 * What this process's shared state (scoring/shared-state.ts) and its counters are built from. The
 * hot state, logger and clock are read from the context when used, as they were when the counters
 * took the whole context (a test may swap them).
 */
export function localStateDeps(ctx: AppContext): LocalStateDeps {
  return liveView<Omit<LocalStateDeps, keyof LiveView>>(ctx, {
    now: () => ctx.now(),
    get decisions() {
      return ctx.services.decisions.history;
    },
    siteIds: () => allSiteIds(ctx.database.db),
    risk: { token: evidenceRisk, device: deviceEvidenceRisk },
  });
}

/**
 * What a webhook dispatcher is built from (webhooks/dispatcher.ts `DispatcherDeps`), read from the
 * context when used (a test may swap its logger or clock).
 */
export function dispatcherDeps(ctx: AppContext): DispatcherDeps {
  return liveView<Omit<DispatcherDeps, keyof LiveView>>(ctx, {
    get database() {
      return ctx.database;
    },
    get writes() {
      return ctx.services.decisions.writer.writes;
    },
    outbox: ctx.services.outbox,
    get config() {
      return ctx.config;
    },
    metrics: ctx.metrics,
    now: () => ctx.now(),
  });
}

/** What a test may swap in the context after the app and its services are built. */
export type LiveView = Pick<AppContext, 'hotState' | 'logger' | 'lookup' | 'worker' | 'readiness'>;

/**
 * `fields` with the context's hot state, logger, DNS resolver, worker link and readiness added as
 * getters: each use reads the context's current one (a test swaps them after the app is built).
 * The engine's, shared state's, dispatcher's and routes' dependencies are made with it. A spread
 * copies the values once: spread the result per use only.
 */
export function liveView<T extends object>(ctx: AppContext, fields: T): T & LiveView {
  const live = (name: keyof LiveView): PropertyDescriptor => ({ get: () => ctx[name], enumerable: true });
  return Object.defineProperties(fields, {
    hotState: live('hotState'),
    logger: live('logger'),
    lookup: live('lookup'),
    worker: live('worker'),
    readiness: live('readiness'),
  }) as T & LiveView;
}
