import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { RemoteCommit } from '../decisions/decision-writer.ts';
import { buildApp } from '../http/app.ts';
import { closeContext, createContext } from '../main.ts';
import { Readiness } from '../readiness.ts';
import type { IdentityService } from '../scoring/identity.ts';
import { listenOrExplain, untilSignal } from '../serve-steps.ts';
import { answerMetricsRequests } from './cluster-metrics.ts';
import { IpcHotState } from './ipc-hot-state.ts';
import { OwnerClient } from './owner-client.ts';
import { OwnerSharedState } from './owner-shared-state.ts';
import { WORKER_ENV } from './primary.ts';
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

/** The worker's end of the cluster IPC channel. */
function processChannel(): Channel {
  return {
    send: (message) => {
      if (!process.connected) throw new Error('IPC channel closed');
      process.send?.(message, undefined, undefined, () => {});
    },
    onMessage: (handler) => process.on('message', handler),
  };
}

/** The primary's identity graph, reached over the channel. */
export function ownerIdentity(owner: OwnerClient): IdentityService {
  return {
    observe: (siteId, e) => owner.call(['identity', siteId, e]),
    clusterOf: (siteId, accountIds, limit) => owner.call(['clusterOf', siteId, accountIds, limit]),
  };
}

/**
 * One HTTP worker of `serve --workers N` (forked by cluster/primary.ts): the whole HTTP stack and
 * the scoring engine (parsing, validation, user agent, fingerprint, behaviour metrics, IP
 * intelligence, e-mail checks, signals and rules), with the primary's hot state, identity graph
 * and group commit on the embedded default. It listens on the primary's shared socket.
 */
export async function runWorker(config: Config, logger: Logger): Promise<number> {
  const channel = processChannel();
  let started: Awaited<ReturnType<typeof startWorker>>;
  try {
    started = await startWorker(config, logger, channel);
  } catch (err) {
    if (!process.send) throw err;
    // The primary prints the line and stops every worker: one line however many failed.
    const failed: StartFailedMessage = { t: START_FAILED, message: (err as Error).message };
    process.send(failed, undefined, undefined, () => process.exit(1));
    return new Promise<number>(() => undefined);
  }
  const { ctx, app, owner } = started;

  const primaryGone = new Promise<string>((resolve) =>
    process.once('disconnect', () => resolve('disconnect')),
  );
  const why = await Promise.race([untilSignal(logger), primaryGone]);
  if (why === 'disconnect') {
    // Without the primary nothing can be scored or recorded: stop answering at once.
    logger.error('the primary process is gone; worker exiting');
    owner.fail();
    process.exit(1);
  }
  await app.close();
  await closeContext(ctx);
  process.disconnect();
  return 0;
}

/** Everything up to listening on the primary's shared socket. */
async function startWorker(config: Config, logger: Logger, channel: Channel) {
  const owner = new OwnerClient(channel);
  const readiness = new Readiness();
  const primaryReady = new Promise<void>((resolve, reject) => {
    channel.onMessage((message) => {
      if (!isMessage<ReadyMessage>(message, READY)) return;
      if (message.failed) reject(new Error(message.failed));
      else resolve();
    });
  });
  readiness.track('primary', primaryReady);
  const since = Number(process.env[WORKER_ENV]);
  const embeddedStore = !config.databaseUrl;
  const hotState = config.redisUrl ? undefined : new IpcHotState(owner, Number.isFinite(since) ? since : 0);
  // With the in-process hot state an event's whole shared state is one `observe` on the primary.
  const sharedState = hotState
    ? (identity: IdentityService) => new OwnerSharedState(owner, embeddedStore ? undefined : identity)
    : undefined;
  // On the embedded default the primary owns the identity graph and commits every decision (and
  // applies its outcome's hot-state writes in the same message).
  const metrics = () => owner.call<string>(['metrics']);
  const worker = embeddedStore
    ? {
        identity: ownerIdentity(owner),
        commit: ((row, key, writes) =>
          owner.call(['commit', row, key ?? null, writes ?? []])) satisfies RemoteCommit,
        sharedState,
        metrics,
      }
    : { identity: undefined, sharedState, metrics };
  const base = await createContext(config, logger, {
    migrate: false,
    worker,
    ...(hotState ? { hotState } : {}),
  });
  const ctx = { ...base, readiness };
  answerMetricsRequests(channel, ctx.metrics);
  // Site changes: this worker's go to the primary, the others' come from it (no key outlives its rotation).
  ctx.services.siteChanges.alsoTell(() => {
    try {
      channel.send({ t: SITE_CHANGED } satisfies SiteChangedMessage);
    } catch {
      // The primary is gone: this worker exits (below), no other worker is left to tell.
    }
  });
  channel.onMessage((message) => {
    if (isMessage<SiteChangedMessage>(message, SITE_CHANGED)) ctx.services.siteKeys.changed();
  });
  const app = await buildApp(ctx);
  await listenOrExplain(app, config);
  logger.debug({ pid: process.pid }, 'worker listening');
  return { ctx, app, owner };
}
