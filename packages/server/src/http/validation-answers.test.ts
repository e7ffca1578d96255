import { readFileSync, writeFileSync } from 'node:fs';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../testing/accounts.ts';
import { createTestContext, type TestApp, testAppOf } from '../testing/context.ts';
import { BROWSER_ORIGIN } from '../testing/scoring-app.ts';
import { buildApp } from './app.ts';
import { type BadRequest, badRequests, placeholders } from './validation-answers.fixtures.ts';

/**
 * The answers of every route to a broad set of bad requests (bad bodies, queries and params, the
 * wrong branch of a union, extra properties, wrong enums, patterns, bounds, more than ten errors),
 * recorded in validation-answers.golden.jsonl: status and body (its timestamp left out). Every route
 * is stopped right after its preHandler hooks (the handler never runs, nothing is written), except
 * the batch routes, whose items are validated by the handler. A change to how requests are validated
 * must replay the recording unchanged; `WARDEN_UPDATE_VALIDATION_ANSWERS=1` rewrites it.
 */

const GOLDEN = new URL('./validation-answers.golden.jsonl', import.meta.url);
const UPDATE = process.env.WARDEN_UPDATE_VALIDATION_ANSWERS === '1';
/** @fastify/swagger-ui serves its own files under /docs: not Warden's routes. */
const THIRD_PARTY = /^\/docs(\/|$)/;
const HANDLER_RUNS = /\/batch$/;

/** Long requests (a string over its limit) are recorded by their start and length. */
function shorten(text: string): string {
  return text.length <= 160 ? text : `${text.slice(0, 120)}… (${text.length} characters)`;
}

interface Answer {
  request: string;
  payload?: string;
  status: number;
  body: unknown;
}

describe('validation answers', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let stopping = false;
  const routes: RouteOptions[] = [];
  const stop = async (_request: unknown, reply: { code(n: number): { send(b: unknown): unknown } }) => {
    if (stopping) return reply.code(299).send({ validated: true });
  };
  beforeAll(async () => {
    const ctx = await createTestContext();
    const app = await buildApp(ctx, {
      onRoute: (route) => {
        routes.push(route);
        if (THIRD_PARTY.test(route.url) || HANDLER_RUNS.test(route.url)) return;
        const own = route.preHandler === undefined ? [] : ([] as unknown[]).concat(route.preHandler);
        route.preHandler = [...own, stop] as NonNullable<RouteOptions['preHandler']>;
      },
    });
    await app.ready();
    t = testAppOf(app, ctx);
    ws = await createTestWorkspace(ctx, { plan: 'enterprise', origins: [BROWSER_ORIGIN] });
  });
  afterAll(() => t.close());

  it('answers every bad request as recorded', async () => {
    const headers = {
      ...ws.owner.headers,
      'x-site-key': ws.site.siteKey,
      'x-secret-key': ws.site.secretKey,
      origin: BROWSER_ORIGIN,
    };
    const post = async (url: string, payload: object) =>
      (
        await t.app.inject({
          method: 'POST',
          url,
          headers: { ...headers, 'content-type': 'application/json' },
          payload,
        })
      ).json().data;
    const ids = {
      rule: (await post(`/api/rules?siteId=${ws.site.id}`, { name: 'r', expression: 'true', score: 1 })).id,
      list: (
        await post(`/api/lists?siteId=${ws.site.id}`, {
          name: 'l',
          kind: 'email',
          type: 'block',
          entries: [],
        })
      ).id,
      decision: (await post('/api/antibot/verify', { context: { event_type: 'login', account_id: 'a1' } }))
        .request_id,
    };
    stopping = true;
    const names = placeholders({
      site: ws.site.id,
      workspace: ws.workspaceId,
      owner: ws.owner.userId,
      siteKey: ws.site.siteKey,
      ...ids,
    });
    const own = routes.filter((r) => !THIRD_PARTY.test(r.url));
    const requests: BadRequest[] = badRequests(own, names.ids);
    expect(requests.length).toBeGreaterThan(500);

    const answers: Answer[] = [];
    for (const r of requests) {
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: r.url,
        headers: r.payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(r.payload === undefined ? {} : { payload: r.payload }),
      });
      let body: unknown = res.body;
      try {
        const { timestamp: _t, ...rest } = res.json();
        body = rest;
      } catch {}
      answers.push({
        request: shorten(names.hide(`${r.method} ${r.url}`)),
        ...(r.payload === undefined ? {} : { payload: shorten(names.hide(r.payload)) }),
        status: res.statusCode,
        body: JSON.parse(names.hide(JSON.stringify(body))),
      });
    }
    if (UPDATE) writeFileSync(GOLDEN, answers.map((a) => `${JSON.stringify(a)}\n`).join(''));
    const lines = readFileSync(GOLDEN, 'utf8').split('\n').filter(Boolean);
    const recorded = lines.map((line) => JSON.parse(line) as Answer);
    expect(answers.length).toBe(recorded.length);
    for (const [i, answer] of answers.entries()) expect(answer, answer.request).toEqual(recorded[i]);
  }, 120_000);
});
