import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { AssetCache } from './asset-cache.ts';
import type { BoundedMemo } from './bounded-memo.ts';
import type { Config } from './config.ts';
import type { DecisionLog } from './decisions/decision-log.ts';
import type { RemoteCommit } from './decisions/decision-writer.ts';
import type { HardwareProfileWrites } from './fingerprint/hardware.ts';
import type { ExpirySweeper } from './housekeeping/expiry-sweeper.ts';
import type { ServiceMetrics } from './metrics.ts';
import type { Readiness } from './readiness.ts';
import type { RuleStore } from './rules/store.ts';
import type { ScoringEngine } from './scoring/engine-types.ts';
import type { IdentityService } from './scoring/identity.ts';
import type { IpIntel } from './scoring/ip-intel.ts';
import type { SharedState } from './scoring/shared-state.ts';
import type { HotState } from './state/hot-state.ts';
import type { Database } from './storage/db.ts';
import type { StorageSpace } from './storage/storage-space.ts';
import type { WebhookDispatcher } from './webhooks/dispatcher.ts';
import type { OutboxSignal } from './webhooks/outbox.ts';
import type { LookupAll } from './webhooks/safe-url.ts';
import type { ScoringSite, ScoringSites } from './workspace/scoring-sites.ts';
import type { SiteChangeFeed } from './workspace/site-change-feed.ts';
import type { SiteKeyCache } from './workspace/site-key-cache.ts';

/** Everything a route plugin or a worker needs, built once in main.ts (or by a test). */
export interface AppContext {
  config: Config;
  database: Database;
  hotState: HotState;
  metrics: Registry;
  logger: Logger;
  /** Secret for signing access tokens and fingerprint tokens. */
  secret: string;
  now: () => number;
  /** DNS resolver for webhook URLs (saved and sent); default the system's. Tests pass a fake. */
  lookup?: LookupAll;
  /** Start-up steps `/readyz` waits for (set by `serve`; absent in tests that do not need it). */
  readiness?: Readiness;
  /**
   * Set in a `serve --workers` worker (cluster/worker.ts): the primary runs the sweepers and, on
   * the embedded default, owns the identity graph this worker scores with and commits its decisions
   * (`createServices` builds the decision log on `commit` and the engine on `identity`); with the
   * in-process hot state the engine observes through `sharedState` (one message per event).
   */
  worker?: WorkerLink;
  /** Every long-lived service of the process, built once by services.ts's `createServices`. */
  services: Services;
}

/** What a `serve --workers` worker reaches on the primary (undefined: its own, as a process). */
export interface WorkerLink {
  identity: IdentityService | undefined;
  commit?: RemoteCommit | undefined;
  /** The shared state scoring observes (the engine's; default: this process's, LocalSharedState). */
  sharedState?: ((identity: IdentityService) => SharedState) | undefined;
  /** `/metrics`: every process's metrics summed, gathered by the primary (cluster/cluster-metrics.ts). */
  metrics?: (() => Promise<string>) | undefined;
}

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
  /** The cache of site-key lookups (`sites`), told of every site change by `siteChanges`. */
  siteKeys: SiteKeyCache<ScoringSite>;
  /** The sites of the scoring routes by key, remembered in `siteKeys` (http/site-auth.ts authenticates with them). */
  sites: ScoringSites;
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
