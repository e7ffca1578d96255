// `warden serve`: the HTTP server, the webhook dispatcher and the demo seed. Loaded by cli.ts only
// when serve runs, so the other commands start without the HTTP stack.
import type { AddressInfo } from 'node:net';
import { type ParsedArgs, UsageError } from './cli-args.ts';
import { loadConfig } from './config.ts';
import { buildApp } from './http/app.ts';
import { closeContext, createContext, createLogger } from './main.ts';
import { Readiness } from './readiness.ts';
import { DEMO_CREDENTIALS_FILE, demoOrigins, formatDemoBanner, seedDemo } from './workspace/demo-seed.ts';

export async function serve(args: ParsedArgs): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const config = loadConfig(process.env, args.settings);
  const logger = createLogger(config);
  if (config.unsafeWebhookTargets) {
    logger.warn(
      'WARDEN_UNSAFE_WEBHOOK_TARGETS is on: webhooks may target loopback, private addresses and plain http',
    );
  }
  const readiness = new Readiness();
  // Migrations are applied here, before the server listens.
  const ctx = { ...(await createContext(config, logger)), readiness };
  const app = await buildApp(ctx);
  readiness.track('decisionWriter', ctx.services.decisions.writer.ready());
  const webhooks = config.webhookWorker ? ctx.services.dispatcher : null;
  webhooks?.start();
  if (webhooks) readiness.track('webhookWorker', webhooks.started);
  const address = await app.listen({ host: config.host, port: config.port });
  logger.info(
    { address, storage: ctx.database.dialect, hotState: config.redisUrl ? 'redis' : 'memory' },
    'warden serving',
  );
  if (config.seedDemo) {
    // After listen: with --port 0 only now do we know the port the demo origins need.
    const port = (app.server.address() as AddressInfo).port;
    const origins = demoOrigins(config.host, port);
    const seeding = seedDemo(
      { database: ctx.database, dataDir: config.dataDir, logger, now: ctx.now, sites: ctx.services.siteKeys },
      origins,
    );
    // Tracked in the same turn as listen resolved: no request is answered in between.
    readiness.track('demoSeed', seeding);
    const seeded = await seeding;
    if (seeded) {
      const file = `${config.dataDir}/${DEMO_CREDENTIALS_FILE}`;
      process.stderr.write(formatDemoBanner(seeded, origins[0] ?? address, file));
    }
  }
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await app.close();
  await webhooks?.stop();
  await closeContext(ctx);
  return 0;
}
