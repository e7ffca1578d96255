// Fatal start-up errors as one line an operator can act on. cli.ts prints the line and the
// process exits non-zero (bin/warden.js), so a supervisor learns at once that the start failed.
import path from 'node:path';
import type { Config } from './config.ts';

/** A start-up step failed; the message is the whole line to print. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** How long opening the database may take at start-up before it counts as unreachable. */
export const DATABASE_START_TIMEOUT_MS = 10_000;

type SystemError = Error & { code?: string; address?: string; port?: number };

/** The listening address of a failed `listen` as `host:port`. */
function listenAddress(err: SystemError, config: Pick<Config, 'host' | 'port'>): string {
  const host = err.address ?? config.host;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `${shown}:${err.port ?? config.port}`;
}

/** A failed `listen` of the main port or of WARDEN_METRICS_PORT. */
export function listenFailure(
  error: unknown,
  config: Pick<Config, 'host' | 'port' | 'metricsPort'>,
): StartupError {
  const err = error as SystemError;
  const metrics = config.metricsPort !== undefined && err.port === config.metricsPort && err.port !== 0;
  const setting = metrics ? 'WARDEN_METRICS_PORT (--metrics-port)' : 'WARDEN_PORT (--port)';
  const where = `cannot listen on ${listenAddress(err, config)}`;
  switch (err.code) {
    case 'EADDRINUSE':
      return new StartupError(
        `${where}: the port is already in use; stop the other process or set ${setting}`,
      );
    case 'EACCES':
      return new StartupError(
        `${where}: permission denied (ports below 1024 need privileges); set ${setting}`,
      );
    case 'EADDRNOTAVAIL':
      return new StartupError(`${where}: no network interface has that address; set WARDEN_HOST (--host)`);
    default:
      return new StartupError(`${where}: ${err.message}`);
  }
}

/** The database a setting names, without credentials: `postgres://host:5432/db` or the SQLite file. */
export function databaseName(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `the database file ${path.join(config.dataDir, 'warden.db')}`;
  const url = new URL(config.databaseUrl);
  return `the database at ${url.protocol}//${url.host}${url.pathname}`;
}

const DATABASE_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the database server running and listening there?)',
  ENOTFOUND: 'unknown host name',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
  EACCES: 'permission denied (WARDEN_DATA_DIR must be writable by this user)',
  SQLITE_CANTOPEN: 'the file cannot be opened (WARDEN_DATA_DIR must exist or be creatable, and be writable)',
};

/** A database that could not be opened, reached or migrated at start-up. */
export function databaseFailure(
  error: unknown,
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
): StartupError {
  if (error instanceof StartupError) return error;
  const err = error as SystemError;
  const cause = (err.code && DATABASE_CAUSES[err.code]) || err.message || String(error);
  return new StartupError(`cannot use ${databaseName(config)}: ${cause}`);
}

/** How long Redis may take to answer its first PING at start-up before it counts as unreachable. */
export const REDIS_START_TIMEOUT_MS = 5_000;

/** The Redis a setting names, without credentials: `redis://host:6379/0`. */
export function redisName(redisUrl: string): string {
  const url = new URL(redisUrl);
  return `the Redis at ${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/** A Redis (WARDEN_REDIS_URL) that did not answer at start-up. */
export function redisFailure(error: unknown, redisUrl: string): StartupError {
  if (error instanceof StartupError) return error;
  const err = error as SystemError;
  const cause =
    (err.code && DATABASE_CAUSES[err.code]?.replace('database server', 'Redis server')) ||
    (/max retries|Connection is closed/i.test(err.message ?? '')
      ? 'no connection (is the Redis server running and listening there?)'
      : err.message || String(error));
  return new StartupError(
    `cannot use ${redisName(redisUrl)}: ${cause}; check WARDEN_REDIS_URL (--redis-url)`,
  );
}

/** `work`, or a StartupError saying `what` did not finish within `ms`. */
export async function withinStartTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StartupError(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
