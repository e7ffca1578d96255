import pino, { type Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { REDACTED_PATHS } from './http/app.ts';
import type { HotState } from './state/hot-state.ts';
import { MemoryHotState } from './state/memory.ts';
import { RedisHotState } from './state/redis.ts';
import { openConfiguredDatabase } from './storage/configured.ts';
import { migrate } from './storage/db.ts';
import { loadInstanceSecret } from './storage/instance-secret.ts';

export function createLogger(config: Config): Logger {
  return pino({ level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
}

export { openConfiguredDatabase };

export function openHotState(config: Config): HotState {
  return config.redisUrl ? new RedisHotState(config.redisUrl) : new MemoryHotState();
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
