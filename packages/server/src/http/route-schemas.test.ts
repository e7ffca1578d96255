import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestApp, testAppOf } from '../testing/context.ts';
import { buildApp } from './app.ts';

/**
 * One validation path: every input a route reads is declared in its schema, which Fastify compiles
 * once when the route registers and applies in its validation step, before the handler (after the
 * access checks of http/access.ts). Walks every registered route (collected by an onRoute hook):
 * - a path parameter (`:id`, `*`) is declared in `schema.params`, by name;
 * - a route that reads the body has `schema.body`; one that reads the query has `schema.querystring`
 *   (read: its handler or one of its hooks names `request.body` / `request.query`);
 * - a POST, PUT or PATCH route without a body schema is one of the known body-less actions;
 * - no route defers its schema errors to the handler (`attachValidation`).
 */

/** @fastify/swagger-ui serves its own files under /docs: not Warden's routes. */
const THIRD_PARTY = /^\/docs(\/|$)/;

/** Actions that take no body: the method and path are the whole request. */
const BODYLESS_ACTIONS = [
  'POST /api/auth/logout',
  'POST /api/sites/:id/rotate-keys',
  'POST /api/webhooks/test',
  'POST /api/webhooks/deliveries/:id/redeliver',
  'POST /api/workspaces/:id/sso/metadata/refresh',
];

function methodsOf(route: RouteOptions): string[] {
  return ([] as string[]).concat(route.method as string | string[]);
}

/** The source of the handler and of the route's own hooks: what the route reads. */
function sourceOf(route: RouteOptions): string {
  const hooks = [route.onRequest, route.preValidation, route.preHandler].flatMap((h) =>
    h === undefined ? [] : ([] as unknown[]).concat(h),
  );
  return [route.handler, ...hooks].map(String).join('\n');
}

function reads(source: string, part: 'body' | 'query'): boolean {
  const member = new RegExp(`\\b(request|req)\\.${part}\\b`);
  const destructured = new RegExp(`\\{[^}]*\\b${part}\\b[^}]*\\}\\s*=\\s*(request|req)\\b`);
  // `async ({ body }) => …`: the request destructured in the handler's parameters.
  const parameter = new RegExp(`^\\s*(async\\s*)?(function\\s*\\w*\\s*)?\\(\\s*\\{[^}]*\\b${part}\\b`, 'm');
  return member.test(source) || destructured.test(source) || parameter.test(source);
}

function pathParams(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)|\*/g)].map((m) => m[1] ?? '*').sort();
}

/** The route's path parameters are not exactly those its params schema declares. */
function undeclaredParams(route: RouteOptions): boolean {
  const schema = route.schema?.params as { properties?: Record<string, unknown> } | undefined;
  return (
    Object.keys(schema?.properties ?? {})
      .sort()
      .join() !== pathParams(route.url).join()
  );
}

/** The route reads its body (or query) but declares no schema for it. */
function undeclared(route: RouteOptions, part: 'body' | 'query'): boolean {
  const schema = part === 'body' ? route.schema?.body : route.schema?.querystring;
  return schema === undefined && reads(sourceOf(route), part);
}

describe('route schemas', () => {
  let t: TestApp;
  const routes: RouteOptions[] = [];
  beforeAll(async () => {
    const ctx = await createTestContext();
    const app = await buildApp(ctx, { onRoute: (r) => routes.push(r) });
    await app.ready();
    t = testAppOf(app, ctx);
  });
  afterAll(() => t.close());

  const own = () => routes.filter((r) => !THIRD_PARTY.test(r.url));
  const label = (r: RouteOptions) => `${methodsOf(r).join(',')} ${r.url}`;

  it('walked every route', () => {
    expect(own().length).toBeGreaterThan(90);
    expect(own().some((r) => r.url === '/api/sites/:id')).toBe(true);
  });

  it('declares every path parameter in schema.params', () => {
    const missing = own()
      .filter((r) => pathParams(r.url).length > 0 && undeclaredParams(r))
      .map(label);
    expect(missing).toEqual([]);
  });

  it('declares a body schema on every route that reads the body', () => {
    const missing = own()
      .filter((r) => undeclared(r, 'body'))
      .map(label);
    expect(missing).toEqual([]);
  });

  it('declares a querystring schema on every route that reads the query', () => {
    const missing = own()
      .filter((r) => undeclared(r, 'query'))
      .map(label);
    expect(missing).toEqual([]);
  });

  it('gives every POST, PUT and PATCH a body schema unless it is a known body-less action', () => {
    const bodyless = own()
      .filter((r) => r.schema?.body === undefined)
      .flatMap((r) =>
        methodsOf(r)
          .filter((m) => ['POST', 'PUT', 'PATCH'].includes(m))
          .map((m) => `${m} ${r.url}`),
      )
      .sort();
    expect(bodyless).toEqual([...BODYLESS_ACTIONS].sort());
  });

  it('lets no route defer its schema errors to the handler', () => {
    expect(
      own()
        .filter((r) => r.attachValidation)
        .map(label),
    ).toEqual([]);
  });

  it('is a check that can fail: a route reading undeclared inputs is reported', () => {
    const wrong = {
      method: 'POST',
      url: '/api/things/:thingId',
      schema: { params: { type: 'object', properties: { id: { type: 'string' } } } },
      handler: async (request: { body: unknown; query: unknown }) => [request.body, request.query],
    } as unknown as RouteOptions;
    expect(undeclaredParams(wrong)).toBe(true);
    expect(undeclared(wrong, 'body')).toBe(true);
    expect(undeclared(wrong, 'query')).toBe(true);
    const right = {
      ...wrong,
      schema: { params: { properties: { thingId: {} } }, body: {}, querystring: {} },
    };
    expect(undeclaredParams(right)).toBe(false);
    expect(undeclared(right, 'body') || undeclared(right, 'query')).toBe(false);
    expect(reads('async ({ body }) => body', 'body')).toBe(true);
    expect(reads('const { body, params } = request;', 'body')).toBe(true);
    expect(reads('async (request) => ok(request.params)', 'body')).toBe(false);
  });
});
