import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { Registry } from 'prom-client';
import { type Config, MEMORY_SHARES } from './config.ts';
import type { AppContext, WorkerLink } from './context.ts';
import { REDACTED_PATHS } from './http/app.ts';
import { CENSOR, redactFields, splitRedactedPaths, withRedactedBindings } from './log-redaction.ts';
import { withServices } from './services.ts';
import {
  DATABASE_START_TIMEOUT_MS,
  databaseFailure,
  databaseName,
  REDIS_START_TIMEOUT_MS,
  redisFailure,
  redisName,
  withinStartTimeout,
} from './startup-errors.ts';
import type { HotState } from './state/hot-state.ts';
import { MemoryHotState } from './state/memory.ts';
import { RedisHotState } from './state/redis.ts';
import { openConfiguredDatabase } from './storage/configured.ts';
import { type Database, migrate, ping } from './storage/db.ts';
import { loadInstanceSecret } from './storage/instance-secret.ts';

/**
 * Readable lines (pino-pretty) when a person watches: stdout is a terminal and this is not a test
 * run. Otherwise JSON lines, one object per line, for log collectors.
 */
export function logFormat(stdoutIsTty: boolean, env: Record<string, string | undefined>): 'pretty' | 'json' {
  const testRun = env.VITEST !== undefined || env.NODE_ENV === 'test';
  return stdoutIsTty && !testRun ? 'pretty' : 'json';
}

/** The service logger: secrets redacted; to `destination` when given (tests capture lines so). */
export function createLogger(config: Config, destination?: DestinationStream): Logger {
  const { literal, fields } = splitRedactedPaths(REDACTED_PATHS);
  const redact = redactFields(fields);
  const options = {
    level: config.logLevel,
    redact: { paths: literal, censor: CENSOR },
    formatters: { log: redact },
  };
  if (destination) return withRedactedBindings(pino(options, destination), redact);
  if (logFormat(process.stdout.isTTY === true, process.env) === 'pretty') {
    // In process (no transport worker), so it works the same from source and from a bundle.
    return withRedactedBindings(
      pino(
        options,
        pretty({ colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }),
      ),
      redact,
    );
  }
  return withRedactedBindings(pino(options), redact);
}

export { openConfiguredDatabase };

export function openHotState(config: Config): HotState {
  if (config.redisUrl) return new RedisHotState(config.redisUrl);
  return new MemoryHotState(Date.now, Math.floor(config.memoryBudgetBytes * MEMORY_SHARES.hotState));
}

/**
 * The configured hot state; a Redis that does not answer a PING within REDIS_START_TIMEOUT_MS is a
 * StartupError (the process exits with one line) instead of a server that fails every request.
 */
async function reachedHotState(config: Config, database: Database): Promise<HotState> {
  const hotState = openHotState(config);
  if (!config.redisUrl || !(hotState instanceof RedisHotState)) return hotState;
  try {
    await withinStartTimeout(
      hotState.ping(),
      REDIS_START_TIMEOUT_MS,
      `cannot reach ${redisName(config.redisUrl)}`,
    );
    return hotState;
  } catch (err) {
    // Not awaited: a client still reconnecting may take long to end.
    hotState.close().catch(() => undefined);
    database.close().catch(() => undefined);
    throw redisFailure(err, config.redisUrl);
  }
}

export interface ContextOptions {
  /** Apply migrations (default); a `serve --workers` worker starts after the primary applied them. */
  migrate?: boolean;
  /** The hot state to use instead of the configured one (a worker's reaches the primary's). */
  hotState?: HotState;
  /** A `serve --workers` worker's link to the primary (its services are built on it). */
  worker?: WorkerLink;
}

/**
 * The configured database, migrated (or only reached, for a worker whose primary migrated): an
 * unreachable server, a file that cannot be opened or a failed migration is a StartupError naming
 * the database (without credentials), after DATABASE_START_TIMEOUT_MS at the latest.
 */
async function openStorage(config: Config, logger: Logger, applyMigrations: boolean): Promise<Database> {
  let database: Database | undefined;
  try {
    const opened = openConfiguredDatabase(config);
    database = opened;
    const first = applyMigrations ? migrate(opened) : ping(opened).then(() => []);
    const applied = await withinStartTimeout(
      first,
      DATABASE_START_TIMEOUT_MS,
      `cannot reach ${databaseName(config)}`,
    );
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    return database;
  } catch (err) {
    // Not awaited: a pool still connecting to an unreachable host may take long to end.
    database?.close().catch(() => undefined);
    throw databaseFailure(err, config);
  }
}

/** Composition root: config → storage → hot state → services (services.ts) → context. */
export async function createContext(
  config: Config,
  logger: Logger = createLogger(config),
  options: ContextOptions = {},
): Promise<AppContext> {
  const database = await openStorage(config, logger, options.migrate !== false);
  const hotState = options.hotState ?? (await reachedHotState(config, database));
  const secret = await loadInstanceSecret(database, config.secret);
  const base = { config, database, hotState, metrics: new Registry(), logger, secret, now: Date.now };
  return withServices(options.worker ? { ...base, worker: options.worker } : base);
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.hotState.close();
  await ctx.database.close();
}
