import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addTestUser,
  createTestWorkspace,
  type TestUser,
  type TestWorkspace,
} from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import { insertDecisions } from '../../testing/decision-rows.ts';

/** Backtest listings and label quality, rule statistics over a period, a draft tried on one decision. */
describe('rule quality and the rule editor helpers', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let viewer: TestUser;
  const start = Date.parse('2026-10-01T00:00:00Z');
  const range = { from: '2026-10-01T00:00:00Z', to: '2026-10-02T00:00:00Z' };
  const ids: string[] = [];
  const fast = (label: string | null) => ({
    features: { history: { ip_1m: 40 } },
    signals: [{ rule: 'velocity_ip_1m', score: 35 }],
    label,
  });
  const quiet = (label: string | null) => ({ features: { history: { ip_1m: 1 } }, label });

  beforeAll(async () => {
    // The rule time budget is wall time: a loaded machine must not skip the draft (rule_timeout).
    t = await createTestApp({ env: { WARDEN_RULE_TIME_BUDGET_MS: '10000' } });
    ws = await createTestWorkspace(t.ctx, { plan: 'pro' });
    other = await createTestWorkspace(t.ctx);
    viewer = await addTestUser(t.ctx, { workspaceId: ws.workspaceId, role: 'viewer' });
    const rows = await insertDecisions(
      t.ctx,
      { id: ws.site.id, workspaceId: ws.workspaceId },
      [fast('fraud'), fast('fraud'), fast('legit'), quiet('fraud'), quiet('legit'), quiet(null)],
      start,
    );
    ids.push(...rows.map((r) => r.id));
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers = ws.owner.headers) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const draft = { name: 'fast_ip', expression: 'features.history.ip_1m > 20.0', score: 40 };

  it('lists the decisions a draft matches, page by page, with precision and recall over the range', async () => {
    const first = await post(`/api/rules/backtest?siteId=${ws.site.id}`, {
      ...range,
      rules: [draft],
      matchesLimit: 2,
    });
    expect(first.statusCode).toBe(200);
    const data = first.json().data;
    expect(data.matched).toMatchObject({ rules: ['fast_ip'], total: 3, offset: 0, limit: 2, nextOffset: 2 });
    expect(data.matched.items).toHaveLength(2);
    // Newest first: the third fast decision (legit), then the second.
    expect(data.matched.items[0]).toMatchObject({
      decisionId: ids[2],
      label: 'legit',
      matchedRules: ['fast_ip'],
      before: { score: 35, action: 'review' },
      after: { score: 75, action: 'challenge' },
    });
    expect(data.quality.fast_ip).toEqual({
      labeled: 5,
      truePositives: 2,
      falsePositives: 1,
      falseNegatives: 1,
      trueNegatives: 1,
      precision: 0.667,
      recall: 0.667,
    });
    const second = (
      await post(`/api/rules/backtest?siteId=${ws.site.id}`, { ...range, rules: [draft], matchesOffset: 2 })
    ).json().data;
    expect(second.matched.items.map((i: { decisionId: string }) => i.decisionId)).toEqual([ids[0]]);
    expect(second.matched.nextOffset).toBeNull();
  });

  it('refuses a bad matches page', async () => {
    const res = await post(`/api/rules/backtest?siteId=${ws.site.id}`, { ...range, matchesLimit: 0 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].path).toContain('matchesLimit');
  });

  it('reports rule statistics over any period, also before the rule was created', async () => {
    const created = await post(`/api/rules?siteId=${ws.site.id}`, {
      name: 'recorded',
      expression: 'true',
      score: 1,
    });
    const rule = created.json().data;
    // Two of the old decisions recorded a match of a rule of that name.
    for (const id of [ids[0], ids[4]] as string[]) {
      await t.ctx.database.db
        .updateTable('decisions')
        .set({ signals: JSON.stringify([{ rule: 'custom:recorded', score: 1, description: '' }]) })
        .where('id', '=', id)
        .execute();
    }
    const since = (
      await t.app.inject({ url: `/api/rules/${rule.id}/stats`, headers: ws.owner.headers })
    ).json().data;
    expect(since.labeled).toBe(0);
    const res = await t.app.inject({
      url: `/api/rules/${rule.id}/stats?from=${range.from}&to=${range.to}`,
      headers: viewer.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      from: '2026-10-01T00:00:00.000Z',
      labeled: 5,
      truePositives: 1,
      falsePositives: 1,
      falseNegatives: 2,
      trueNegatives: 1,
      precision: 0.5,
      recall: 0.333,
    });
    const bad = await t.app.inject({
      url: `/api/rules/${rule.id}/stats?from=${range.to}&to=${range.from}`,
      headers: ws.owner.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toBe('querystring.from');
    const notDate = await t.app.inject({
      url: `/api/rules/${rule.id}/stats?from=yesterday`,
      headers: ws.owner.headers,
    });
    expect(notDate.statusCode).toBe(400);
  });

  it('tries a draft rule on one stored decision', async () => {
    const url = `/api/rules/test?siteId=${ws.site.id}`;
    // ids[1] is untouched: its recorded default signal (35) + the draft (40) + the saved rule `recorded` (1).
    const hit = await post(url, { decisionId: ids[1], rule: draft });
    expect(hit.statusCode).toBe(200);
    expect(hit.json().data).toMatchObject({
      decisionId: ids[1],
      rule: 'fast_ip',
      applies: true,
      matched: true,
      error: null,
      before: { score: 35, action: 'review' },
      after: { score: 76, action: 'challenge' },
    });
    expect(hit.json().data.signals.map((s: { rule: string }) => s.rule)).toContain('custom:fast_ip');
    const miss = (await post(url, { decisionId: ids[3], rule: draft })).json().data;
    expect(miss).toMatchObject({ matched: false, error: null, after: { score: 1 } });
    const broken = (
      await post(url, { decisionId: ids[3], rule: { ...draft, expression: 'features.nothing.here > 1.0' } })
    ).json().data;
    expect(broken.matched).toBe(false);
    expect(broken.error).toEqual(expect.any(String));
    const otherType = (
      await post(url, { decisionId: ids[0], rule: { ...draft, eventTypes: ['checkout'] } })
    ).json().data;
    expect(otherType).toMatchObject({ applies: false, matched: false });
  });

  it('answers 400, 403 and 404 precisely for a rule test', async () => {
    const url = `/api/rules/test?siteId=${ws.site.id}`;
    const noDecision = await post(url, { rule: draft });
    expect(noDecision.statusCode).toBe(400);
    expect(noDecision.json().error.code).toBe('validation_failed');
    const badExpr = await post(url, {
      decisionId: ids[0],
      rule: { ...draft, expression: 'features.history.ip_1m >' },
    });
    expect(badExpr.statusCode).toBe(400);
    expect(badExpr.json().error.details[0].path).toBe('body.rule.expression');
    expect((await post(url, { decisionId: ids[0], rule: draft }, viewer.headers)).statusCode).toBe(403);
    expect((await post(url, { decisionId: 'nope', rule: draft })).statusCode).toBe(404);
    const foreign = await post(
      `/api/rules/test?siteId=${other.site.id}`,
      { decisionId: ids[0], rule: draft },
      other.owner.headers,
    );
    expect(foreign.statusCode).toBe(404);
    expect((await post(url, { decisionId: ids[0], rule: draft }, other.owner.headers)).statusCode).toBe(404);
  });

  it('serves the built-in signal catalogue to any member', async () => {
    const res = await t.app.inject({ url: '/api/signals', headers: viewer.headers });
    expect(res.statusCode).toBe(200);
    const signals = res.json().data.signals as Array<{ name: string; family: string; description: string }>;
    expect(signals.length).toBeGreaterThan(50);
    expect(signals.find((s) => s.name === 'email_disposable')).toMatchObject({
      family: 'email',
      score: 25,
      hard: false,
    });
    expect((await t.app.inject({ url: '/api/signals' })).statusCode).toBe(401);
  });
});
