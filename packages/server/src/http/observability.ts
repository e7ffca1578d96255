import { timingSafeEqual } from 'node:crypto';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Logger } from 'pino';
import { collectDefaultMetrics, type Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import { type ServiceMetrics, UNMATCHED_ROUTE } from '../metrics.ts';
import type { Readiness } from '../readiness.ts';
import type { HotState } from '../state/hot-state.ts';
import { type Database, ping } from '../storage/db.ts';
import type { StorageSpace } from '../storage/storage-space.ts';
import { installErrorHandling } from './errors.ts';
import type { App } from './types.ts';

/**
 * What the request metrics, the access log, /healthz, /readyz and /metrics use (http/app.ts passes
 * the process's context, so what a test swaps is seen at each use).
 */
export interface ObservabilityDeps {
  readonly config: Pick<Config, 'metricsToken' | 'metricsPort' | 'host'>;
  readonly metrics: Registry;
  readonly logger: Logger;
  readonly database: Database;
  readonly hotState: Pick<HotState, 'ping'>;
  readonly readiness?: Pick<Readiness, 'report'> | undefined;
  readonly worker?: { readonly metrics?: (() => Promise<string>) | undefined } | undefined;
  readonly services: {
    readonly metrics: Pick<ServiceMetrics, 'request'>;
    readonly storage: Pick<StorageSpace, 'check'>;
  };
}

/** The path of a request URL, without its query (which may carry tokens). */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/**
 * Per request, on the root instance so that every route is seen (a hook inside an encapsulated
 * plugin only sees that plugin's routes): the HTTP metrics and one access-log line at info with
 * the method, path, route template, status, duration, client address (the socket's, or
 * X-Forwarded-For's when the socket is a WARDEN_TRUSTED_PROXIES proxy) and request id (`reqId`).
 * Nothing else about the request is logged: no URL query, no headers, no body.
 */
export function installRequestObservation(app: App, ctx: ObservabilityDeps): void {
  const metrics = ctx.services.metrics;
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const ms = reply.elapsedTime;
    metrics.request(request.method, route, reply.statusCode, ms / 1000);
    request.log.info(
      {
        method: request.method,
        path: pathOf(request.url),
        route,
        status: reply.statusCode,
        durationMs: Math.round(ms * 1000) / 1000,
        client: request.ip,
      },
      'request',
    );
    done();
  });
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** GET /metrics: the registry as Prometheus text; behind `Authorization: Bearer <token>` when one is set. */
function metricsHandler(ctx: ObservabilityDeps) {
  const token = ctx.config.metricsToken;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (token !== undefined) {
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
      if (!sameSecret(given, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new ApiError('unauthorized', 'Send the metrics token as Authorization: Bearer <token>.');
      }
    }
    reply.header('content-type', ctx.metrics.contentType);
    return ctx.worker?.metrics ? ctx.worker.metrics() : ctx.metrics.metrics();
  };
}

/**
 * /metrics on a listener of its own (WARDEN_METRICS_PORT, same host), when configured: started
 * when the main app gets ready (before it listens: a taken metrics port fails `listen`, which an
 * onListen hook could not), closed with it. The main app then has no /metrics. Root instance only.
 */
export function installMetricsListener(app: App, ctx: ObservabilityDeps): void {
  const port = ctx.config.metricsPort;
  if (port === undefined) return;
  const metricsApp = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  installErrorHandling(metricsApp);
  metricsApp.get('/metrics', metricsHandler(ctx));
  app.addHook('onReady', async () => {
    const address = await metricsApp.listen({ host: ctx.config.host, port });
    ctx.logger.info({ address }, 'metrics serving');
  });
  app.addHook('onClose', async () => metricsApp.close());
  app.decorate('metricsServer', metricsApp.server);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The /metrics listener when WARDEN_METRICS_PORT is set (for its address). */
    metricsServer?: import('node:http').Server;
  }
}

/** /healthz, /readyz and /metrics. */
export async function observabilityRoutes(app: App, ctx: ObservabilityDeps): Promise<void> {
  if (!ctx.metrics.getSingleMetric('process_cpu_seconds_total'))
    collectDefaultMetrics({ register: ctx.metrics });

  const hide = { schema: { hide: true } };
  app.get('/healthz', hide, async () => ({ status: 'ok' }));
  app.get('/readyz', hide, async (_request, reply) => {
    const checks: Record<string, string> = {};
    for (const [name, check] of [
      ['database', () => ping(ctx.database)],
      ['hotState', () => ctx.hotState.ping()],
    ] as const) {
      try {
        await check();
        checks[name] = 'ok';
      } catch (err) {
        checks[name] = err instanceof Error ? err.message : 'failed';
      }
    }
    checks.storage = await ctx.services.storage.check(ctx.database.db).catch((err: unknown) => String(err));
    for (const [name, state] of Object.entries(ctx.readiness?.report() ?? {})) checks[name] = state;
    const ready = Object.values(checks).every((v) => v === 'ok');
    if (!ready) throw new ApiError('not_ready', `Not ready: ${JSON.stringify(checks)}`);
    return reply.send({ status: 'ready', checks });
  });
  if (ctx.config.metricsPort === undefined) app.get('/metrics', hide, metricsHandler(ctx));
}
