import { Counter, collectDefaultMetrics, Histogram } from 'prom-client';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { ping } from '../storage/db.ts';
import type { App } from './types.ts';

/** /healthz, /readyz and /metrics, plus per-request metrics. */
export async function observabilityRoutes(app: App, ctx: AppContext): Promise<void> {
  if (!ctx.metrics.getSingleMetric('process_cpu_seconds_total'))
    collectDefaultMetrics({ register: ctx.metrics });
  const requests = new Counter({
    name: 'warden_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [ctx.metrics],
  });
  const duration = new Histogram({
    name: 'warden_http_request_duration_seconds',
    help: 'HTTP request duration by route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [ctx.metrics],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unknown';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

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
    for (const [name, state] of Object.entries(ctx.readiness?.report() ?? {})) checks[name] = state;
    const ready = Object.values(checks).every((v) => v === 'ok');
    if (!ready) throw new ApiError('not_ready', `Not ready: ${JSON.stringify(checks)}`);
    return reply.send({ status: 'ready', checks });
  });
  app.get('/metrics', hide, async (_request, reply) => {
    reply.header('content-type', ctx.metrics.contentType);
    return ctx.metrics.metrics();
  });
}
