import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoleFixture, type RoleFixture } from '../../testing/accounts.ts';
import { createTestApp, type TestApp, testDialects } from '../../testing/context.ts';
import { serverHeaders } from '../../testing/scoring-app.ts';

describe.each(testDialects())('POST /api/decisions/labels on %s', (dialect) => {
  let t: TestApp;
  let f: RoleFixture;
  let ids: string[] = [];
  let foreignId = '';
  let ruleId = '';

  const verify = async (site: { siteKey: string; secretKey: string }, account: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: serverHeaders(site),
      payload: { context: { event_type: 'login', account_id: account, ip_address: '198.51.100.40' } },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.request_id as string;
  };
  const label = (payload: unknown, headers: Record<string, string> = f.w.owner.headers) =>
    t.app.inject({ method: 'POST', url: '/api/decisions/labels', headers, payload: payload as object });
  const labelOf = async (id: string) =>
    (await t.app.inject({ url: `/api/decisions/${id}`, headers: f.w.owner.headers })).json().data.label;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    f = await createRoleFixture(t.ctx);
    const rule = await t.app.inject({
      method: 'POST',
      url: `/api/rules?siteId=${f.w.site.id}`,
      headers: f.w.owner.headers,
      payload: { name: 'every_login', expression: 'event.type == "login"', score: 1 },
    });
    expect(rule.statusCode).toBe(201);
    ruleId = rule.json().data.id;
    ids = [await verify(f.w.site, 'lab1'), await verify(f.w.site, 'lab2'), await verify(f.w.site, 'lab3')];
    foreignId = await verify(f.foreign.site, 'stranger');
  });
  afterAll(() => t.close());

  it('labels every decision in one go, audits it, and the rule statistics count the labels', async () => {
    const res = await label({ decisionIds: ids.slice(0, 2), label: 'fraud' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      siteId: f.w.site.id,
      label: 'fraud',
      decisionIds: ids.slice(0, 2),
      changed: 2,
    });
    expect(await labelOf(ids[0]!)).toBe('fraud');
    expect(await labelOf(ids[1]!)).toBe('fraud');
    expect(await labelOf(ids[2]!)).toBeNull();

    const audit = await t.app.inject({
      url: `/api/audit?workspaceId=${f.w.workspaceId}&action=decision.label`,
      headers: f.analyst.headers,
    });
    const entry = audit.json().data.items[0];
    expect(entry).toMatchObject({
      action: 'decision.label',
      targetType: 'decision',
      targetId: '2 decisions',
      actor: { email: expect.any(String) },
      after: { label: 'fraud', count: 2, decisionIds: ids.slice(0, 2) },
    });
    expect(entry.before.labels).toEqual(
      expect.arrayContaining([
        { id: ids[0], label: null },
        { id: ids[1], label: null },
      ]),
    );

    const stats = await t.app.inject({ url: `/api/rules/${ruleId}/stats`, headers: f.w.owner.headers });
    expect(stats.json().data).toMatchObject({ labeled: 2, truePositives: 2, falsePositives: 0 });
  });

  it('lets an analyst label, not a viewer (403, nothing changed)', async () => {
    const denied = await label({ decisionIds: [ids[2]], label: 'legit' }, f.viewer.headers);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('forbidden');
    expect(await labelOf(ids[2]!)).toBeNull();
    const res = await label({ decisionIds: [ids[2]], label: 'legit' }, f.analyst.headers);
    expect(res.statusCode).toBe(200);
    expect(await labelOf(ids[2]!)).toBe('legit');
  });

  it('answers 404 naming unknown and foreign ids, and labels none of the others', async () => {
    const res = await label({ decisionIds: [ids[2], 'dec_missing', foreignId], label: 'fraud' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 'not_found' });
    expect(res.json().error.details).toEqual(
      expect.arrayContaining([
        { path: 'body.decisionIds.1', message: 'no such decision' },
        { path: 'body.decisionIds.2', message: 'no such decision' },
      ]),
    );
    expect(await labelOf(ids[2]!)).toBe('legit');
  });

  it('answers 400 for a bad body, with the path', async () => {
    const cases: Array<[unknown, string]> = [
      [{ decisionIds: [], label: 'fraud' }, 'body/decisionIds'],
      [{ decisionIds: [ids[0]], label: 'maybe' }, 'body/label'],
      [{ decisionIds: [ids[0], ids[0]], label: 'fraud' }, 'body/decisionIds'],
      [{ decisionIds: Array.from({ length: 501 }, (_, i) => `d${i}`), label: 'fraud' }, 'body/decisionIds'],
      [{ decisionIds: [ids[0]], label: 'fraud', extra: 1 }, 'body'],
    ];
    for (const [payload, path] of cases) {
      const res = await label(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(JSON.stringify(res.json().error.details)).toContain(path.split('/').pop());
    }
    expect(await labelOf(ids[0]!)).toBe('fraud');
  });

  it('needs a session (401)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/decisions/labels',
      payload: { decisionIds: ids, label: 'fraud' },
    });
    expect(res.statusCode).toBe(401);
  });
});
