import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from './config.ts';
import type { RemoteCommit } from './decisions/decision-writer.ts';
import type { Readiness } from './readiness.ts';
import type { IdentityService } from './scoring/identity.ts';
import type { SharedState } from './scoring/shared-state.ts';
import type { Services } from './services.ts';
import type { HotState } from './state/hot-state.ts';
import type { Database } from './storage/db.ts';
import type { LookupAll } from './webhooks/safe-url.ts';

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
