// `warden serve`: the HTTP server, the webhook dispatcher and the demo seed. Loaded by cli.ts only
// when serve runs, so the other commands start without the HTTP stack.
import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { type ParsedArgs, UsageError } from './cli-args.ts';
import { isClusterWorker, runPrimary } from './cluster/primary.ts';
import { runWorker } from './cluster/worker.ts';
import { type Config, loadConfig } from './config.ts';
import { tuneHeap } from './heap-tuning.ts';
import { buildApp } from './http/app.ts';
import { closeContext, createContext, createLogger } from './main.ts';
import { Readiness } from './readiness.ts';
import { listenOrExplain, seedDemoAfterListen, untilSignal } from './serve-steps.ts';

export async function serve(args: ParsedArgs): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const config = loadConfig(process.env, args.settings);
  const logger = createLogger(config);
  const heapFlags = tuneHeap();
  if (heapFlags.length > 0) logger.debug({ flags: heapFlags }, 'garbage collector tuned');
  if (isClusterWorker()) return runWorker(config, logger);
  if (config.unsafeWebhookTargets) {
    logger.warn(
      'WARDEN_UNSAFE_WEBHOOK_TARGETS is on: webhooks may target loopback, private addresses and plain http',
    );
  }
  if (config.nodeEnv === 'production' && config.metricsPort === undefined && !config.metricsToken) {
    logger.warn(
      '/metrics is open on the main port: in production set WARDEN_METRICS_TOKEN or WARDEN_METRICS_PORT',
    );
  }
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, logger);
  return serveInOneProcess(config, logger);
}

/** `--workers 1`: this process does everything. */
async function serveInOneProcess(config: Config, logger: Logger): Promise<number> {
  const readiness = new Readiness();
  // Migrations are applied here, before the server listens.
  const ctx = { ...(await createContext(config, logger)), readiness };
  const app = await buildApp(ctx);
  readiness.track('decisionWriter', ctx.services.decisions.writer.ready());
  const webhooks = config.webhookWorker ? ctx.services.dispatcher : null;
  webhooks?.start();
  if (webhooks) readiness.track('webhookWorker', webhooks.started);
  const address = await listenOrExplain(app, config);
  logger.info(
    { address, storage: ctx.database.dialect, hotState: config.redisUrl ? 'redis' : 'memory', workers: 1 },
    'warden serving',
  );
  // After listen: with --port 0 only now do we know the port the demo origins need.
  const seeding = seedDemoAfterListen(config, ctx, address, app.server.address());
  // Tracked in the same turn as listen resolved: no request is answered in between.
  if (seeding) readiness.track('demoSeed', seeding);
  await seeding;
  await untilSignal(logger);
  await app.close();
  await webhooks?.stop();
  await closeContext(ctx);
  return 0;
}
