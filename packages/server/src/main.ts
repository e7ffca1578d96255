import path from 'node:path';
import pino, { type Logger } from 'pino';
import { Registry } from 'prom-client';
import { type Config, MEMORY_SHARES } from './config.ts';
import type { AppContext } from './context.ts';
import { REDACTED_PATHS } from './http/app.ts';
import type { HotState } from './state/hot-state.ts';
import { MemoryHotState } from './state/memory.ts';
import { RedisHotState } from './state/redis.ts';
import { type Database, migrate, openDatabase } from './storage/db.ts';
import { loadInstanceSecret } from './storage/instance-secret.ts';

export function createLogger(config: Config): Logger {
  return pino({ level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
}

export function openConfiguredDatabase(config: Config): Database {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    sqlitePath: path.join(config.dataDir, 'warden.db'),
  });
}

export function openHotState(config: Config): HotState {
  if (config.redisUrl) return new RedisHotState(config.redisUrl);
  return new MemoryHotState(Date.now, Math.floor(config.memoryBudgetBytes * MEMORY_SHARES.hotState));
}

/** Composition root: config → storage → hot state → context. */
export async function createContext(
  config: Config,
  logger: Logger = createLogger(config),
): Promise<AppContext> {
  const database = openConfiguredDatabase(config);
  const applied = await migrate(database);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  const hotState = openHotState(config);
  const secret = await loadInstanceSecret(database, config.secret);
  return { config, database, hotState, metrics: new Registry(), logger, secret, now: Date.now };
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.hotState.close();
  await ctx.database.close();
}
