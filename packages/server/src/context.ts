import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from './config.ts';
import type { Readiness } from './readiness.ts';
import type { Services } from './services.ts';
import type { HotState } from './state/hot-state.ts';
import type { Database } from './storage/db.ts';

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
  /** Start-up steps `/readyz` waits for (set by `serve`; absent in tests that do not need it). */
  readiness?: Readiness;
  /** Every long-lived service of the process, built once by services.ts's `createServices`. */
  services: Services;
}
