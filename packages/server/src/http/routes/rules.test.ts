import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTestUser, createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import { serverHeaders } from '../../testing/scoring-app.ts';

describe('custom rules routes', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let analyst: { authorization: string };
  let viewer: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp();
    ws = await createTestWorkspace(t.ctx, { plan: 'pro' });
    other = await createTestWorkspace(t.ctx);
    analyst = (await addTestUser(t.ctx, { workspaceId: ws.workspaceId, role: 'analyst' })).headers;
    viewer = (await addTestUser(t.ctx, { workspaceId: ws.workspaceId, role: 'viewer' })).headers;
  });
  afterAll(() => t.close());

  const create = (headers: { authorization: string }, body: unknown, siteId = ws.site.id) =>
    t.app.inject({ method: 'POST', url: `/api/rules?siteId=${siteId}`, headers, payload: body as object });

  const rule = {
    name: 'many_ips',
    description: 'Many logins from one IP',
    eventTypes: ['login'],
    expression: 'features.ip_1m > 20.0 && event.type == "login"',
    score: 40,
  };

  it('creates, reads, updates and deletes a rule (analyst)', async () => {
    const res = await create(analyst, rule);
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created).toMatchObject({
      name: 'many_ips',
      enabled: true,
      mode: 'live',
      score: 40,
      action: null,
      priority: 0,
    });
    const list = await t.app.inject({ url: `/api/rules?siteId=${ws.site.id}`, headers: viewer });
    expect(list.json().data.rules.map((r: { id: string }) => r.id)).toContain(created.id);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/rules/${created.id}`,
      headers: analyst,
      payload: { mode: 'shadow', action: 'review' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ mode: 'shadow', action: 'review', score: 40 });
    const del = await t.app.inject({ method: 'DELETE', url: `/api/rules/${created.id}`, headers: analyst });
    expect(del.json().data).toEqual({ id: created.id, deleted: true });
    expect((await t.app.inject({ url: `/api/rules/${created.id}`, headers: analyst })).statusCode).toBe(404);
  });

  it('points at a CEL syntax error with a precise 400', async () => {
    const res = await create(ws.owner.headers, { ...rule, name: 'broken', expression: 'features.ip_1m > ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.details[0].path).toBe('body.expression');
    expect(res.json().error.details[0].message).toMatch(/Unexpected|EOF/i);
  });

  it('refuses a regular expression RE2 does not support, and saves the ReDoS rule of issue 17', async () => {
    const res = await create(ws.owner.headers, {
      ...rule,
      name: 'lookahead',
      expression: 'event.email.matches("^(?=.*[0-9]).+@")',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.message).toMatch(
      /^The expression does not compile: unsupported regular expression/,
    );
    expect(res.json().error.details[0].message).toContain('RE2 syntax');
    const redos = await create(ws.owner.headers, {
      ...rule,
      name: 'redos',
      eventTypes: [],
      expression: 'event.email != null && !event.email.matches("^([a-z0-9]+)+@")',
      score: 5,
    });
    expect(redos.statusCode).toBe(201);
    // The hostile e-mail of the issue (21 s on a backtracking engine) is scored normally: the rule
    // ran on RE2, did not find the "@", so its negation matched.
    const scored = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: serverHeaders(ws.site),
      payload: { context: { event_type: 'signup', account_id: 'acct_redos', email: `${'a'.repeat(30)}!` } },
    });
    expect(scored.statusCode).toBe(201);
    const rules = (scored.json().data.signals as Array<{ rule: string }>).map((s) => s.rule);
    expect(rules.filter((r) => r.endsWith(':redos'))).toEqual(['custom:redos']);
  });

  it('rejects unknown variables, non-bool expressions and rules without an effect', async () => {
    expect((await create(ws.owner.headers, { ...rule, name: 'u', expression: 'nope > 1' })).statusCode).toBe(
      400,
    );
    expect((await create(ws.owner.headers, { ...rule, name: 'n', expression: '1 + 2' })).statusCode).toBe(
      400,
    );
    const { score, ...noEffect } = rule;
    expect((await create(ws.owner.headers, { ...noEffect, name: 'ne' })).json().error.details[0].path).toBe(
      'body.score',
    );
  });

  it('validates fields: score range, action, event types', async () => {
    for (const bad of [
      { score: 101 },
      { action: 'ban' },
      { eventTypes: ['logout'] },
      { name: 'has space' },
    ]) {
      const res = await create(ws.owner.headers, { ...rule, name: 'v', ...bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('refuses duplicate names with 409', async () => {
    expect((await create(ws.owner.headers, { ...rule, name: 'dup' })).statusCode).toBe(201);
    expect((await create(ws.owner.headers, { ...rule, name: 'dup' })).json().error.code).toBe('conflict');
  });

  it('lets a viewer read but not write (403 before 400)', async () => {
    expect((await create(viewer, rule)).statusCode).toBe(403);
    expect((await create(viewer, { nonsense: true })).statusCode).toBe(403);
  });

  it('answers 404 for another workspace and 401 without a token', async () => {
    expect((await create(other.owner.headers, rule)).statusCode).toBe(404);
    const mine = (await create(ws.owner.headers, { ...rule, name: 'mine' })).json().data;
    expect(
      (await t.app.inject({ url: `/api/rules/${mine.id}`, headers: other.owner.headers })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/rules/${mine.id}`, headers: other.owner.headers }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: `/api/rules?siteId=${ws.site.id}` })).statusCode).toBe(401);
  });
});

describe('lists routes', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp();
    ws = await createTestWorkspace(t.ctx);
  });
  afterAll(() => t.close());

  it('creates an IP list with CIDRs and edits its entries', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/lists?siteId=${ws.site.id}`,
      headers: ws.owner.headers,
      payload: { name: 'bad_ips', kind: 'ip', type: 'block', entries: ['203.0.113.7', '198.51.100.0/24'] },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/lists/${id}`,
      headers: ws.owner.headers,
      payload: { add: ['2001:db8::/32'], remove: ['203.0.113.7'] },
    });
    expect(patched.json().data.entries).toEqual(['198.51.100.0/24', '2001:db8::/32']);
  });

  it('names the bad entry in a 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/lists?siteId=${ws.site.id}`,
      headers: ws.owner.headers,
      payload: { name: 'x', kind: 'ip', type: 'block', entries: ['1.2.3.4', 'not-an-ip'] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0]).toEqual({
      path: 'body.entries.1',
      message: '"not-an-ip" is not a valid IP address',
    });
  });
});
