import { Decision, Envelope, VerificationRequest } from '@warden/protocol';
import type { AppContext } from '../../context.ts';
import type { ScoringEngine } from '../../scoring/engine-types.ts';
import { enforce, scoringRateLimit } from '../../scoring/rate-limit.ts';
import { scoreAndRecord } from '../../scoring/record.ts';
import { ok } from '../envelope.ts';
import { preflightHandler, type Surface, scoringSiteOf } from '../site-auth.ts';
import type { App } from '../types.ts';
import { registerAltchaRoute } from './altcha.ts';
import { applyIdempotencyHeader } from './idempotency-header.ts';
import { registerBatchRoutes } from './scoring-batch.ts';
import {
  ANTIBOT_PREFIX,
  BROWSER_PATHS,
  type ScoringServices,
  securityOf,
  surfaceHooks,
  userAgentOf,
} from './scoring-common.ts';
import { registerToolRoutes } from './scoring-tools.ts';
import { checkBehaviorLimit, SINGLE_EVENT_LIMIT, typeboxValidatorCompiler } from './scoring-validation.ts';

export type { ScoringServices } from './scoring-common.ts';

/**
 * The ten scoring routes under /api/antibot (interface §4.1). Order of checks (SPEC §10):
 * body limit 413 → 415 → invalid_json (body parsing) → site key → secret or origin (preValidation)
 * → validation_failed (schema, then evidence limits) → rate limit (preHandler) → handler.
 */
function registerEventRoute(app: App, ctx: AppContext, engine: ScoringEngine, surface: Surface): void {
  const route = surface === 'browser' ? 'collect' : 'verify';
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
    },
    async (request, reply) => {
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
      });
      if (result.limitHeaders) reply.headers(result.limitHeaders);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.replayed ? 200 : 201).send(ok(result.decision));
    },
  );
}

export async function scoringApi(app: App, ctx: AppContext, services: ScoringServices): Promise<void> {
  app.setValidatorCompiler(typeboxValidatorCompiler);
  for (const surface of ['browser', 'server'] as const) {
    registerEventRoute(app, ctx, services.engine, surface);
    registerBatchRoutes(app, ctx, services.engine, surface);
    registerToolRoutes(app, ctx, services, surface);
  }
  registerAltchaRoute(app, ctx);
  const preflight = preflightHandler(ctx);
  for (const path of BROWSER_PATHS)
    app.options(`${ANTIBOT_PREFIX}${path}`, { schema: { hide: true } }, preflight);

  // A `serve --workers` worker leaves the sweeps to the primary (cluster/primary.ts).
  if (ctx.worker) return;
  ctx.services.sweeper.start();
  app.addHook('onClose', async () => ctx.services.sweeper.stop());
}
