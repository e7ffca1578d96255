import { Decision, Envelope, VerificationRequest } from '@warden/protocol';
import type { FastifyRequest } from 'fastify';
import type { ServiceMetrics } from '../../metrics.ts';
import { enforce, scoringRateLimit } from '../../pipeline/rate-limit.ts';
import { scoreAndRecord } from '../../pipeline/record.ts';
import type { DecisionTimeline, ScoringEngine } from '../../scoring/engine-types.ts';
import { ok } from '../envelope.ts';
import { preflightHandler, type Surface, scoringSiteOf } from '../site-auth.ts';
import type { App } from '../types.ts';
import { schemaValidator } from '../validation.ts';
import { registerAltchaRoute } from './altcha.ts';
import { applyIdempotencyHeader } from './idempotency-header.ts';
import { registerBatchRoutes } from './scoring-batch.ts';
import {
  ANTIBOT_PREFIX,
  BROWSER_PATHS,
  type ScoringDeps,
  type ScoringServices,
  securityOf,
  surfaceHooks,
  userAgentOf,
} from './scoring-common.ts';
import { registerToolRoutes } from './scoring-tools.ts';
import { checkBehaviorLimit, SINGLE_EVENT_LIMIT } from './scoring-validation.ts';

export type { ScoringDeps, ScoringServices } from './scoring-common.ts';

/**
 * The stages of a recorded decision's request into the metrics (metrics.ts DECISION_STAGES), once
 * it is answered: `receivedToValidatedMs` is Fastify's time from the request's arrival to the
 * handler. Replays and refusals, whose stages were not all passed, are not timed.
 */
function observeTimeline(
  metrics: Pick<ServiceMetrics, 'decisionTimeline'>,
  t: DecisionTimeline,
  receivedToValidatedMs: number,
  answered: number,
): void {
  const { validated, observed, decided, queued, committed } = t;
  if (observed === undefined || decided === undefined || queued === undefined || committed === undefined)
    return;
  metrics.decisionTimeline([
    receivedToValidatedMs / 1000,
    (observed - validated) / 1000,
    (decided - observed) / 1000,
    (queued - decided) / 1000,
    (committed - queued) / 1000,
    (answered - committed) / 1000,
  ]);
}

/**
 * The ten scoring routes under /api/antibot (interface §4.1). Order of checks (SPEC §10):
 * body limit 413 → 415 → invalid_json (body parsing) → site key → secret or origin (preValidation)
 * → validation_failed (schema, then evidence limits) → rate limit (preHandler) → handler.
 */
function registerEventRoute(app: App, ctx: ScoringDeps, engine: ScoringEngine, surface: Surface): void {
  const route = surface === 'browser' ? 'collect' : 'verify';
  /** Per request being answered: its timeline, and Fastify's time from arrival to the handler. */
  const timed = new WeakMap<FastifyRequest, { timeline: DecisionTimeline; toHandlerMs: number }>();
  app.post(
    `${ANTIBOT_PREFIX}/${route}`,
    {
      bodyLimit: SINGLE_EVENT_LIMIT,
      schema: {
        tags: ['scoring'],
        summary:
          surface === 'browser'
            ? 'Score an event from the browser (site key + allowed Origin)'
            : 'Score an event from your server (site key + secret key)',
        security: securityOf(surface),
        body: VerificationRequest,
        response: { 200: Envelope(Decision), 201: Envelope(Decision) },
      },
      // An engine that checks the rate limit does so with the event's shared state (one message
      // to the primary in a `serve --workers` worker): the limit is still the last check.
      ...surfaceHooks(ctx, surface, [checkBehaviorLimit, applyIdempotencyHeader], {
        rateLimit: !engine.checksLimit,
      }),
      onResponse: (request, _reply, done) => {
        const entry = timed.get(request);
        if (entry)
          observeTimeline(ctx.services.metrics, entry.timeline, entry.toHandlerMs, performance.now());
        done();
      },
    },
    async (request, reply) => {
      const timeline: DecisionTimeline = { validated: performance.now() };
      timed.set(request, { timeline, toHandlerMs: reply.elapsedTime });
      const site = scoringSiteOf(request);
      let limit = engine.checksLimit ? scoringRateLimit(ctx, surface, site.site.id, request.ip) : undefined;
      // An idempotency key is claimed before scoring: the limit is checked before it, on its own.
      if (limit && request.body.idempotency_key !== undefined) {
        reply.headers(await enforce(ctx, limit));
        limit = undefined;
      }
      const result = await scoreAndRecord(ctx, engine, {
        site,
        surface,
        route,
        body: request.body,
        observedIp: request.ip,
        observedUserAgent: userAgentOf(request),
        ...(limit ? { limit } : {}),
        timeline,
      });
      if (result.limitHeaders) reply.headers(result.limitHeaders);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.replayed ? 200 : 201).send(ok(result.decision));
    },
  );
}

export async function scoringApi(app: App, ctx: ScoringDeps, services: ScoringServices): Promise<void> {
  app.setValidatorCompiler(schemaValidator('every'));
  for (const surface of ['browser', 'server'] as const) {
    registerEventRoute(app, ctx, services.engine, surface);
    registerBatchRoutes(app, ctx, services.engine, surface);
    registerToolRoutes(app, ctx, services, surface);
  }
  registerAltchaRoute(app, ctx);
  const preflight = preflightHandler(ctx.services.sites);
  for (const path of BROWSER_PATHS)
    app.options(`${ANTIBOT_PREFIX}${path}`, { schema: { hide: true } }, preflight);

  // A `serve --workers` worker leaves the sweeps to the primary (cluster/primary.ts).
  if (ctx.worker) return;
  ctx.services.sweeper.start();
  app.addHook('onClose', async () => ctx.services.sweeper.stop());
}
