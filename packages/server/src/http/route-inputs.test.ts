import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTestUser, createTestWorkspace, type TestWorkspace } from '../testing/accounts.ts';
import { createTestContext, type TestApp, testAppOf } from '../testing/context.ts';
import { BROWSER_ORIGIN } from '../testing/scoring-app.ts';
import { buildApp } from './app.ts';

/**
 * Inputs generated over every registered route (collected as they register):
 * - each query parameter (and `siteId`/`workspaceId`) repeated: a repeated parameter is an array
 *   where one value is expected. No route may answer 5xx; a route whose schema declares the
 *   parameter answers 400 `validation_failed` in the envelope;
 * - a JSON body that is not an object (`null`, a list, a scalar) on every route that reads a body:
 *   400, never a success.
 */
describe('every route', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const routes: RouteOptions[] = [];
  beforeAll(async () => {
    const ctx = await createTestContext();
    const app = await buildApp(ctx, { onRoute: (r) => routes.push(r) });
    await app.ready();
    t = testAppOf(app, ctx);
    ws = await createTestWorkspace(ctx, { plan: 'enterprise', origins: [BROWSER_ORIGIN] });
  });
  afterAll(() => t.close());

  const queryNames = (route: RouteOptions): string[] => {
    const schema = route.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
    return [...new Set([...Object.keys(schema?.properties ?? {}), 'siteId', 'workspaceId'])];
  };
  const declaresScalarId = (route: RouteOptions): boolean => {
    const props = (route.schema?.querystring as { properties?: Record<string, { type?: string }> })
      ?.properties;
    return ['siteId', 'workspaceId'].some((p) => props?.[p]?.type === 'string');
  };
  // Signing out ends the session the other requests use: it goes last.
  const order = (r: RouteOptions) => (r.url.includes('logout') ? 1 : 0);

  it('answers no 5xx and a 400 for each parameter the route declares', async () => {
    const sent: string[] = [];
    for (const route of [...routes].sort((a, b) => order(a) - order(b))) {
      const methods = ([] as string[]).concat(route.method as string | string[]);
      const path = route.url.replace(/:[A-Za-z]+/g, 'ab12cd34').replace('*', 'x');
      const query = queryNames(route)
        .flatMap((name) => {
          const first = name === 'workspaceId' ? ws.workspaceId : ws.site.id;
          return [`${name}=${encodeURIComponent(first)}`, `${name}=x`];
        })
        .join('&');
      for (const method of methods) {
        const res = await t.app.inject({
          method: method as 'GET',
          url: `${path}?${query}`,
          headers: {
            ...ws.owner.headers,
            'x-site-key': ws.site.siteKey,
            'x-secret-key': ws.site.secretKey,
            origin: BROWSER_ORIGIN,
          },
          ...(['POST', 'PUT', 'PATCH'].includes(method) ? { payload: {} } : {}),
        });
        const label = `${method} ${route.url} → ${res.statusCode}`;
        sent.push(label);
        expect(res.statusCode, label).toBeLessThan(500);
        const enveloped = path.startsWith('/api/') && path !== '/api/openapi.json' && method !== 'HEAD';
        if (enveloped && res.statusCode >= 400) {
          expect(res.json(), label).toMatchObject({ success: false, error: { code: expect.any(String) } });
        }
        if (declaresScalarId(route) && method !== 'HEAD') {
          expect(res.statusCode, label).toBe(400);
          expect(res.json().error.code, label).toBe('validation_failed');
          expect(res.json().error.details[0].path, label).toMatch(/^querystring\./);
        }
      }
    }
    expect(sent.length).toBeGreaterThan(90);
  });

  it('refuses a JSON body that is not an object on every route that reads a body', async () => {
    // A session of its own (the test above signs its owner out).
    const owner = await addTestUser(t.ctx, { workspaceId: ws.workspaceId, role: 'owner' });
    const headers = {
      ...owner.headers,
      'x-site-key': ws.site.siteKey,
      'x-secret-key': ws.site.secretKey,
      origin: BROWSER_ORIGIN,
      'content-type': 'application/json',
    };
    const mk = async (url: string, payload: object) =>
      (await t.app.inject({ method: 'POST', url, headers, payload })).json().data;
    const ids: Record<string, string> = {
      ':ruleId': (await mk(`/api/rules?siteId=${ws.site.id}`, { name: 'r', expression: 'true', score: 1 }))
        .id,
      ':listId': (
        await mk(`/api/lists?siteId=${ws.site.id}`, { name: 'l', kind: 'email', type: 'block', entries: [] })
      ).id,
      ':decisionId': (await mk('/api/antibot/verify', { context: { event_type: 'login', account_id: 'a1' } }))
        .request_id,
    };
    const pathOf = (url: string) =>
      url
        .replace(/^\/api\/sites\/:id/, `/api/sites/${ws.site.id}`)
        .replace(/^\/api\/workspaces\/:id/, `/api/workspaces/${ws.workspaceId}`)
        .replace(':userId', owner.userId)
        .replace(':workspaceId', ws.workspaceId)
        .replace(/^\/api\/rules\/:id/, `/api/rules/${ids[':ruleId']}`)
        .replace(/^\/api\/lists\/:id/, `/api/lists/${ids[':listId']}`)
        .replace(/^\/api\/decisions\/:id/, `/api/decisions/${ids[':decisionId']}`);
    const bodyRoutes = routes.filter((r) => r.schema?.body !== undefined && !r.url.includes('/saml/'));
    expect(bodyRoutes.length).toBeGreaterThan(20);
    for (const route of bodyRoutes) {
      const path = pathOf(route.url);
      const query = route.schema?.querystring ? `?siteId=${ws.site.id}` : '';
      for (const text of ['null', '[]', '[{}]', '1', '"x"', 'true']) {
        const method = ([] as string[]).concat(route.method as string | string[])[0] as 'POST';
        const res = await t.app.inject({ method, url: `${path}${query}`, headers, payload: text });
        const label = `${method} ${route.url} with ${text} → ${res.statusCode}`;
        expect(res.statusCode, label).toBe(400);
        expect(['validation_failed', 'invalid_json'], label).toContain(res.json().error.code);
      }
    }
  });
});
