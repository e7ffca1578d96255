import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDecisions } from '../../rules/seed-decisions.ts';
import { addTestUser, createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';

describe('rule backtests and stats', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const start = Date.parse('2026-11-01T00:00:00Z');
  beforeAll(async () => {
    t = await createTestApp();
    ws = await createTestWorkspace(t.ctx, { plan: 'pro' });
    await seedDecisions(t.ctx.database, ws.site.id, ws.workspaceId, 1000, start);
  });
  afterAll(() => t.close());

  const backtest = (payload: object, headers = ws.owner.headers) =>
    t.app.inject({ method: 'POST', url: `/api/rules/backtest?siteId=${ws.site.id}`, headers, payload });
  const range = { from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z' };

  it('reports matches and how actions would change', async () => {
    const res = await backtest({
      ...range,
      rules: [
        { name: 'fast_ip_block', expression: 'features.history.ip_1m > 20.0', action: 'block', score: 60 },
      ],
      examples: 3,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.evaluated).toBe(1000);
    expect(data.matches).toEqual({ fast_ip_block: 100 });
    expect(data.before.actions).toEqual({ allow: 900, review: 100 });
    expect(data.after.actions).toEqual({ allow: 900, block: 100 });
    expect(data.transitions).toEqual({ 'review→block': 100 });
    expect(data.examples).toHaveLength(3);
    expect(data.examples[0].after).toEqual({ score: 95, level: 'critical', action: 'block' });
  });

  it('counts shadow drafts as matches without changing anything', async () => {
    const data = (
      await backtest({
        ...range,
        rules: [
          {
            name: 'shadow_checkout',
            mode: 'shadow',
            eventTypes: ['checkout'],
            expression: 'true',
            score: 10,
          },
        ],
      })
    ).json().data;
    expect(data.matches.shadow_checkout).toBe(334);
    expect(data.changed).toBe(0);
  });

  it('points at the draft whose expression does not compile', async () => {
    const res = await backtest({
      ...range,
      rules: [
        { name: 'ok', expression: 'true', score: 1 },
        { name: 'bad', expression: 'event.type ==', score: 1 },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].path).toBe('body.rules.1.expression');
  });

  it('refuses viewers and inverted ranges', async () => {
    const viewer = await addTestUser(t.ctx, { workspaceId: ws.workspaceId, role: 'viewer' });
    expect((await backtest({ ...range }, viewer.headers)).statusCode).toBe(403);
    expect((await backtest({ from: range.to, to: range.from })).statusCode).toBe(400);
  });

  it('computes precision and recall from labels', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/rules?siteId=${ws.site.id}`,
      headers: ws.owner.headers,
      payload: { name: 'r1', expression: 'true', score: 5 },
    });
    const rule = created.json().data;
    // Label 4 decisions: 2 matched by the rule (one fraud, one legit), 2 not matched (one fraud, one legit).
    const rows = await t.ctx.database.db
      .selectFrom('decisions')
      .select('id')
      .where('site_id', '=', ws.site.id)
      .limit(5)
      .execute();
    // A fifth, unlabelled decision for which r1 ran out of its time budget.
    await t.ctx.database.db
      .updateTable('decisions')
      .set({
        created_at: Date.now(),
        signals: JSON.stringify([{ rule: 'rule_timeout:r1', score: 0, description: '' }]),
      })
      .where('id', '=', rows[4]!.id)
      .execute();
    const sig = JSON.stringify([{ rule: 'custom:r1', score: 5, description: '' }]);
    const labels: Array<[string, string | null]> = [
      ['fraud', sig],
      ['legit', sig],
      ['fraud', null],
      ['legit', null],
    ];
    for (const [i, [label, signals]] of labels.entries()) {
      await t.ctx.database.db
        .updateTable('decisions')
        .set({ label, labeled_at: Date.now(), created_at: Date.now(), ...(signals ? { signals } : {}) })
        .where('id', '=', rows[i]!.id)
        .execute();
    }
    const stats = (
      await t.app.inject({ url: `/api/rules/${rule.id}/stats`, headers: ws.owner.headers })
    ).json().data;
    expect(stats).toMatchObject({
      labeled: 4,
      truePositives: 1,
      falsePositives: 1,
      falseNegatives: 1,
      trueNegatives: 1,
      precision: 0.5,
      recall: 0.5,
      matchesLast30Days: 2,
      timeoutsLast30Days: 1,
    });
  });
});
