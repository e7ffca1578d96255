import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, LogController, type RouteOptions } from 'fastify';
import type { AppContext } from '../context.ts';
import { installBodyParsing, MANAGEMENT_BODY_LIMIT } from './body.ts';
import { clientErrorHandler, serverTimeouts } from './client-errors.ts';
import { frameworkErrorHandler, installErrorHandling, installQueryValidation } from './errors.ts';
import { installMetricsListener, installRequestObservation, observabilityRoutes } from './observability.ts';
import { finishOpenapiDocument, openapiOptions } from './openapi.ts';
import { registerRoutes } from './routes.ts';
import type { App } from './types.ts';
import { schemaValidator } from './validation.ts';

/** Headers and body fields never written to logs. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-secret-key"]',
  'req.headers.cookie',
  '*.password',
  '*.secretKey',
  '*.secret',
  '*.accessToken',
  '*.refreshToken',
  '*.token',
];

/**
 * The bare Fastify instance every Warden app starts from: logger, limits, proxy trust, request ids,
 * JSON-only body parsing and the one error handler. `buildApp` adds the docs and every route area;
 * tests that mount one area alone start here too.
 */
export function createFastify(ctx: AppContext): App {
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    bodyLimit: MANAGEMENT_BODY_LIMIT,
    trustProxy: ctx.config.trustedProxies.length > 0 ? ctx.config.trustedProxies : false,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Fastify's two lines per request are off: installRequestObservation writes one access line.
    logController: new LogController({ disableRequestLogging: true }),
    // Ids of every resource are far shorter; longer segments are answered 404 by frameworkErrors.
    routerOptions: { maxParamLength: 512 },
    frameworkErrors: frameworkErrorHandler,
    requestTimeout: ctx.config.http.requestTimeoutMs,
    keepAliveTimeout: ctx.config.http.keepAliveTimeoutMs,
    http: serverTimeouts(ctx.config.http),
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  // One compiler for every route's schemas (http/validation.ts); a plugin may choose the other wording.
  app.setValidatorCompiler(schemaValidator('first'));

  // Per-request hooks here and in the install* functions are plain calls with `done`, not async
  // functions: no promise and no extra microtask per hook and request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  installRequestObservation(app, ctx);
  installBodyParsing(app);
  installErrorHandling(app, (err) => ctx.services.storage.markFull(err));
  installQueryValidation(app);
  return app;
}

export interface BuildOptions {
  /** Called for every route as it is registered (tests that walk all routes). */
  onRoute?: (route: RouteOptions) => void;
}

export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<App> {
  const app = createFastify(ctx);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  await app.register(swagger, {
    openapi: openapiOptions(ctx.config),
    transformObject: (document) =>
      finishOpenapiDocument(
        ('openapiObject' in document ? document.openapiObject : {}) as Record<string, unknown>,
      ),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(async (scope) => observabilityRoutes(scope, ctx));
  installMetricsListener(app, ctx);
  await registerRoutes(app, ctx);
  return app;
}
