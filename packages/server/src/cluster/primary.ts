import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { closeContext, createContext } from '../main.ts';
import { Readiness } from '../readiness.ts';
import { LocalSharedState } from '../scoring/shared-state.ts';
import { seedDemoAfterListen, untilSignal } from '../serve-steps.ts';
import { localStateDeps } from '../services.ts';
import { StartupError } from '../startup-errors.ts';
import { ClusterMetrics } from './cluster-metrics.ts';
import { type OwnedServices, serveOwner } from './owner.ts';
import {
  type Channel,
  isMessage,
  READY,
  type ReadyMessage,
  SITE_CHANGED,
  type SiteChangedMessage,
  START_FAILED,
  type StartFailedMessage,
} from './protocol.ts';

/** Set in a worker's environment by the primary: the primary's hot state's `remembersSince`. */
export const WORKER_ENV = 'WARDEN_WORKER_OF_PRIMARY';
/** A worker that lived shorter than this before dying is restarted after RESTART_DELAY_MS. */
const QUICK_DEATH_MS = 5_000;
const RESTART_DELAY_MS = 1_000;
/** How long a worker may take to finish its requests at shutdown before it is killed. */
const STOP_GRACE_MS = 30_000;

/** This process is a `serve --workers N` worker (forked by runPrimary). */
export function isClusterWorker(): boolean {
  return cluster.isWorker && process.env[WORKER_ENV] !== undefined;
}

function httpAddress(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * `serve --workers N` (N > 1): this process applies the migrations, then owns what must be one:
 * the hot state, the identity graph and the group commit on the embedded default, the webhook
 * dispatcher and the sweepers always. It forks N HTTP workers sharing the listening socket
 * (cluster/worker.ts), answers their requests (cluster/owner.ts) and starts a worker again when
 * one dies. Workers are ready (`/readyz`) once every worker listens and the primary's own start-up
 * steps are done.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<number> {
  const readiness = new Readiness();
  const steps: Array<Promise<unknown>> = [];
  const track = (name: string, work: Promise<unknown>) => {
    readiness.track(name, work);
    steps.push(work.catch((err: unknown) => Promise.reject(new Error(`${name}: ${(err as Error).message}`))));
  };
  // Migrations run here, once, before any worker starts.
  const ctx = { ...(await createContext(config, logger)), readiness };
  const embeddedStore = ctx.database.dialect === 'sqlite';
  const writer = embeddedStore ? ctx.services.decisions.writer : undefined;
  if (writer) track('decisionWriter', writer.ready());
  // With PostgreSQL every worker keeps its own graph and reads the others' rows (as processes do).
  const identity = embeddedStore ? ctx.services.identity : undefined;
  const shared = new LocalSharedState(localStateDeps(ctx), identity);
  const listening = new Set<Worker>();
  const metrics = new ClusterMetrics(ctx.metrics, () => [...listening].map(workerChannel));
  // The workers' events are counted here: rebuild every site's counters before they score.
  if (!config.redisUrl) track('velocityHistory', shared.prepare());
  const services: OwnedServices = {
    hotState: ctx.hotState,
    shared,
    identity,
    commit: writer ? (row, key) => writer.write(row, key) : undefined,
    onWriteError: (err) => logger.warn({ err }, 'decision outcome not remembered'),
    metrics: () => metrics.text(),
  };
  const webhooks = config.webhookWorker ? ctx.services.dispatcher : null;
  webhooks?.start();
  if (webhooks) track('webhookWorker', webhooks.started);
  ctx.services.sweeper.start();
  const stopSweeps = () => ctx.services.sweeper.stop();

  let stopping = false;
  /** Every worker listened once: from then on a worker that dies is started again. */
  let started = false;
  let ready: ReadyMessage | null = null;
  let firstListen: (address: { port: number }) => void = () => {};
  let startFailed: (err: Error) => void = () => {};
  const allListening = new Promise<{ port: number }>((resolve, reject) => {
    firstListen = resolve;
    startFailed = reject;
  });

  // A site change committed by one worker (or here) reaches every other worker's site key cache.
  const siteChanged = (from?: Worker) => {
    for (const worker of listening)
      if (worker !== from && worker.isConnected())
        worker.send({ t: SITE_CHANGED } as never, undefined, () => {});
  };
  ctx.services.siteChanges.alsoTell(() => siteChanged());

  cluster.setupPrimary({ serialization: 'advanced' });
  const fork = (): void => {
    const startedAt = Date.now();
    const worker = cluster.fork({ [WORKER_ENV]: String(ctx.hotState.remembersSince) });
    const channel = workerChannel(worker);
    serveOwner(services, channel);
    worker.on('message', (message) => {
      metrics.received(message);
      if (isMessage<StartFailedMessage>(message, START_FAILED))
        startFailed(new StartupError(message.message));
      if (isMessage<SiteChangedMessage>(message, SITE_CHANGED)) {
        ctx.services.siteKeys.changed();
        siteChanged(worker);
      }
    });
    worker.on('error', (err) => logger.warn({ err, worker: worker.id }, 'worker channel error'));
    worker.on('listening', (address) => {
      listening.add(worker);
      if (listening.size >= config.workers) firstListen(address);
      if (ready) channel.send(ready);
    });
    worker.on('exit', (code, signal) => {
      listening.delete(worker);
      if (stopping) return;
      if (!started) {
        startFailed(new StartupError(`a worker exited while starting (code ${code}, signal ${signal})`));
        return;
      }
      const lived = Date.now() - startedAt;
      logger.error({ worker: worker.id, code, signal }, 'worker died; starting another');
      setTimeout(
        () => {
          if (!stopping) fork();
        },
        lived < QUICK_DEATH_MS ? RESTART_DELAY_MS : 0,
      );
    });
  };
  for (let i = 0; i < config.workers; i++) fork();

  let address: { port: number };
  try {
    address = await allListening;
  } catch (err) {
    // A worker that cannot start (a taken port, say) fails the whole start: no restart loop.
    stopping = true;
    await stopWorkers();
    throw err;
  }
  started = true;
  track('workers', Promise.resolve());
  const url = httpAddress(config.host, address.port);
  logger.info(
    {
      address: url,
      storage: ctx.database.dialect,
      hotState: config.redisUrl ? 'redis' : 'memory',
      workers: config.workers,
    },
    'warden serving',
  );
  const seeding = seedDemoAfterListen(config, ctx, url, address);
  if (seeding) track('demoSeed', seeding);
  void Promise.all(steps)
    .then(
      () => {
        ready = { t: READY };
      },
      (err: unknown) => {
        ready = { t: READY, failed: (err as Error).message };
      },
    )
    .then(() => {
      for (const worker of listening)
        if (worker.isConnected()) worker.send(ready as never, undefined, () => {});
    });

  await untilSignal(logger);
  stopping = true;
  await stopWorkers();
  stopSweeps();
  await webhooks?.stop();
  await closeContext(ctx);
  return 0;
}

/** The primary's end of one worker's IPC channel (a message to a worker that is gone is dropped). */
function workerChannel(worker: Worker): Channel {
  return {
    send: (message) => {
      if (worker.isConnected()) worker.send(message as never, undefined, () => {});
    },
    onMessage: (handler) => worker.on('message', handler),
  };
}

/** Ask every worker to finish its requests and exit; kill the ones still there after the grace time. */
async function stopWorkers(): Promise<void> {
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) return resolve();
          const timer = setTimeout(() => worker.process.kill('SIGKILL'), STOP_GRACE_MS);
          worker.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          worker.process.kill('SIGTERM');
        }),
    ),
  );
}
