// Steps `warden serve` takes in one process and in the primary of `--workers N` alike.
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Services } from './context.ts';
import type { App } from './http/types.ts';
import { listenFailure } from './startup-errors.ts';
import type { Database } from './storage/db.ts';
import { DEMO_CREDENTIALS_FILE, demoOrigins, formatDemoBanner, seedDemo } from './workspace/demo-seed.ts';

/**
 * Seed the demo workspace (when WARDEN_SEED_DEMO is on) for the origins of the port listened on,
 * and print its banner; null when off.
 */
export function seedDemoAfterListen(
  config: Config,
  ctx: { database: Database; logger: Logger; now: () => number; services: Pick<Services, 'siteChanges'> },
  address: string,
  listening: unknown,
): Promise<void> | null {
  if (!config.seedDemo) return null;
  const port = (listening as { port: number }).port;
  const origins = demoOrigins(config.host, port);
  return seedDemo(
    {
      database: ctx.database,
      dataDir: config.dataDir,
      logger: ctx.logger,
      now: ctx.now,
      sites: ctx.services.siteChanges,
    },
    origins,
  ).then((seeded) => {
    if (seeded) {
      const file = `${config.dataDir}/${DEMO_CREDENTIALS_FILE}`;
      process.stderr.write(formatDemoBanner(seeded, origins[0] ?? address, file));
    }
  });
}

/** Resolves on SIGINT or SIGTERM. */
export function untilSignal(logger: Logger): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      resolve(signal);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/**
 * Listen on WARDEN_HOST:WARDEN_PORT (and WARDEN_METRICS_PORT): a port that is taken or refused is a
 * StartupError saying which and what to set. The caller exits; nothing is left listening.
 */
export async function listenOrExplain(app: App, config: Config): Promise<string> {
  try {
    return await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    throw listenFailure(err, config);
  }
}
