import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoleFixture, type RoleFixture } from '../../testing/accounts.ts';
import { createTestApp, type TestApp, testDialects } from '../../testing/context.ts';
import { serverHeaders } from '../../testing/scoring-app.ts';
import { setPlan } from '../../webhooks/test-fixtures.ts';

/**
 * Entity labels (issue 26): a ring labelled as a cluster counts with every decision of its members,
 * those before the label and those after, in backtests and in a rule's precision and recall.
 */
describe.each(testDialects())('entity labels on %s', (dialect) => {
  let t: TestApp;
  let f: RoleFixture;
  let clusterId = '';
  let ruleId = '';
  const decisionIds: Record<string, string> = {};

  const verify = async (name: string, context: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: serverHeaders(f.w.site),
      payload: { context },
    });
    expect(res.statusCode).toBe(201);
    decisionIds[name] = res.json().data.request_id;
    return res.json().data as { identity?: { cluster_id: string } };
  };
  const checkout = (account: string, n: number) =>
    verify(`${account}-checkout`, {
      event_type: 'checkout',
      account_id: account,
      payment_hash: 'pm_ring',
      ip_address: `203.0.113.${n}`,
    });
  const login = (account: string, n: number) =>
    verify(`${account}-login`, { event_type: 'login', account_id: account, ip_address: `198.51.100.${n}` });

  const siteId = () => f.w.site.id;
  const put = (payload: object, headers = f.w.owner.headers) =>
    t.app.inject({ method: 'PUT', url: `/api/entity-labels?siteId=${siteId()}`, headers, payload });
  const remove = (query: string, headers = f.w.owner.headers) =>
    t.app.inject({ method: 'DELETE', url: `/api/entity-labels?siteId=${siteId()}&${query}`, headers });
  /** The draft `checkouts` backtested over the test's decisions: its label quality. */
  const backtestQuality = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/rules/backtest?siteId=${siteId()}`,
      headers: f.w.owner.headers,
      payload: {
        from: new Date(t.ctx.now() - 3600_000).toISOString(),
        to: new Date(t.ctx.now() + 3600_000).toISOString(),
        rules: [{ name: 'checkouts', expression: 'event.type == "checkout"', score: 1 }],
      },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data.quality.checkouts;
  };
  const stats = async () =>
    (await t.app.inject({ url: `/api/rules/${ruleId}/stats`, headers: f.w.owner.headers })).json().data;

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { WARDEN_RULE_TIME_BUDGET_MS: '10000' } });
    f = await createRoleFixture(t.ctx);
    await setPlan(t.ctx.database, f.w.workspaceId, 'pro');
    const rule = await t.app.inject({
      method: 'POST',
      url: `/api/rules?siteId=${siteId()}`,
      headers: f.w.owner.headers,
      payload: { name: 'checkouts', expression: 'event.type == "checkout"', score: 1, mode: 'shadow' },
    });
    expect(rule.statusCode).toBe(201);
    ruleId = rule.json().data.id;
    // A ring: each member signs in alone first, then pays with the ring's card.
    await login('alice', 1);
    await login('bob', 2);
    await checkout('alice', 1);
    await checkout('bob', 2);
    clusterId = (await checkout('carol', 3)).identity!.cluster_id;
    await login('dave', 9);
  });
  afterAll(() => t.close());

  it('counts every decision of a labelled cluster, past and future, and undoes it', async () => {
    // Before: no label at all.
    expect(await backtestQuality()).toMatchObject({ labeled: 0, recall: null });

    const res = await put({ kind: 'cluster', value: clusterId, label: 'fraud' }, f.analyst.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      siteId: siteId(),
      entity: { kind: 'cluster', value: clusterId, label: 'fraud', labeledBy: f.analyst.userId },
      previous: null,
    });
    // The ring's 5 decisions (2 sign-ins recorded before the card linked them): 3 matched, 2 missed.
    expect(await backtestQuality()).toMatchObject({
      labeled: 5,
      truePositives: 3,
      falseNegatives: 2,
      recall: 0.6,
    });
    expect(await stats()).toMatchObject({ labeled: 5, truePositives: 3, falseNegatives: 2 });

    const members = (
      await t.app.inject({ url: `/api/clusters/${clusterId}`, headers: f.w.owner.headers })
    ).json().data.members as Array<{ label: string | null }>;
    expect(members.map((m) => m.label)).toEqual(['fraud', 'fraud', 'fraud']);
    // A decision made after the label counts too; a decision's own label comes first.
    await checkout('erin', 4);
    await t.app.inject({
      method: 'POST',
      url: `/api/decisions/${decisionIds['bob-login']}/label`,
      headers: f.w.owner.headers,
      payload: { label: 'legit' },
    });
    expect(await backtestQuality()).toMatchObject({
      labeled: 6,
      truePositives: 4,
      falseNegatives: 1,
      trueNegatives: 1,
    });

    const undo = await remove(`kind=cluster&value=${clusterId}`, f.analyst.headers);
    expect(undo.statusCode).toBe(200);
    expect(undo.json().data).toMatchObject({ kind: 'cluster', value: clusterId, removed: 'fraud' });
    expect(await backtestQuality()).toMatchObject({ labeled: 1, trueNegatives: 1 });
    expect((await remove(`kind=cluster&value=${clusterId}`)).statusCode).toBe(404);

    const audit = await t.app.inject({
      url: `/api/audit?workspaceId=${f.w.workspaceId}&targetType=entity`,
      headers: f.w.owner.headers,
    });
    expect(audit.json().data.items).toMatchObject([
      {
        action: 'entity.unlabel',
        targetId: `cluster:${clusterId}`,
        before: { kind: 'cluster', value: clusterId, label: 'fraud' },
        after: null,
      },
      { action: 'entity.label', targetId: `cluster:${clusterId}`, before: null, after: { label: 'fraud' } },
    ]);
  });

  it('labels an account, a device, an e-mail or a card; the newest entity label wins', async () => {
    expect((await put({ kind: 'account', value: 'dave', label: 'fraud' })).statusCode).toBe(200);
    expect(await backtestQuality()).toMatchObject({ labeled: 2, trueNegatives: 1, falseNegatives: 1 });
    const card = await put({ kind: 'payment', value: 'pm_ring', label: 'legit' });
    expect(card.json().data.previous).toBeNull();
    expect(await backtestQuality()).toMatchObject({ labeled: 6, falsePositives: 4 });
    // The cluster page shows an account's own label as a whole.
    await put({ kind: 'account', value: 'carol', label: 'fraud' });
    const cluster = (
      await t.app.inject({ url: `/api/clusters/${clusterId}`, headers: f.w.owner.headers })
    ).json().data;
    expect(cluster.members.find((m: { accountId: string }) => m.accountId === 'carol').label).toBe('fraud');
    expect((await remove('kind=account&value=carol')).statusCode).toBe(200);
    const email = await put({ kind: 'email', value: 'Ring@Example.COM', label: 'fraud' });
    expect(email.json().data.entity.value).toBe('ring@example.com');
    const again = await put({ kind: 'account', value: 'dave', label: 'legit' });
    expect(again.json().data).toMatchObject({ previous: 'fraud', entity: { label: 'legit' } });
    const list = await t.app.inject({
      url: `/api/entity-labels?siteId=${siteId()}&kind=email&value=RING@example.com`,
      headers: f.viewer.headers,
    });
    expect(list.json().data.labels).toMatchObject([{ kind: 'email', value: 'ring@example.com' }]);
    const all = await t.app.inject({
      url: `/api/entity-labels?siteId=${siteId()}`,
      headers: f.viewer.headers,
    });
    expect(all.json().data.labels.map((l: { kind: string }) => l.kind)).toEqual([
      'account',
      'email',
      'payment',
    ]);
  });

  it('shows the effective label in the decisions list and the CSV export, saying where it comes from', async () => {
    // Now: dave's account legit, the ring's card legit, bob's sign-in labelled legit itself; the
    // ring's cluster labelled fraud last (the newest entity label wins).
    expect((await put({ kind: 'cluster', value: clusterId, label: 'fraud' })).statusCode).toBe(200);
    const list = await t.app.inject({ url: `/api/decisions?siteId=${siteId()}`, headers: f.viewer.headers });
    expect(list.statusCode).toBe(200);
    const byId = new Map(list.json().data.items.map((d: { id: string }) => [d.id, d]));
    expect(byId.get(decisionIds['alice-checkout']!)).toMatchObject({
      label: null,
      entityLabel: { kind: 'cluster', value: clusterId, label: 'fraud', labeledAt: expect.any(String) },
      effectiveLabel: 'fraud',
    });
    expect(byId.get(decisionIds['bob-login']!)).toMatchObject({
      label: 'legit',
      entityLabel: { kind: 'cluster', value: clusterId, label: 'fraud' },
      effectiveLabel: 'legit',
    });
    expect(byId.get(decisionIds['dave-login']!)).toMatchObject({
      label: null,
      entityLabel: { kind: 'account', value: 'dave', label: 'legit' },
      effectiveLabel: 'legit',
    });
    const detail = await t.app.inject({
      url: `/api/decisions/${decisionIds['alice-login']}`,
      headers: f.viewer.headers,
    });
    expect(detail.json().data).toMatchObject({ label: null, effectiveLabel: 'fraud' });

    const csv = await t.app.inject({
      url: `/api/decisions/export?siteId=${siteId()}&format=csv`,
      headers: f.viewer.headers,
    });
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body.trim().split('\r\n');
    const columns = header!.split(',');
    const rows = new Map(
      lines.map((line) => {
        const fields = line.split(',');
        return [fields[columns.indexOf('id')], fields] as const;
      }),
    );
    const field = (name: string, column: string) => rows.get(decisionIds[name]!)![columns.indexOf(column)];
    expect(field('alice-checkout', 'label')).toBe('');
    expect(field('alice-checkout', 'effectiveLabel')).toBe('fraud');
    expect(field('alice-checkout', 'labelSource')).toBe(`cluster:${clusterId}`);
    expect(field('bob-login', 'effectiveLabel')).toBe('legit');
    expect(field('bob-login', 'labelSource')).toBe('decision');
    expect(field('dave-login', 'labelSource')).toBe('account:dave');
    expect((await remove(`kind=cluster&value=${clusterId}`)).statusCode).toBe(200);
  });

  it('answers 401, 404, 403, 402 and 400 in that order, changing nothing', async () => {
    const count = async () =>
      (
        await t.app.inject({ url: `/api/entity-labels?siteId=${siteId()}`, headers: f.w.owner.headers })
      ).json().data.labels.length;
    const before = await count();
    const body = { kind: 'device', value: 'dev_1', label: 'fraud' };
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/entity-labels?siteId=${siteId()}`, payload: body }))
        .statusCode,
    ).toBe(401);
    const foreign = await t.app.inject({
      method: 'PUT',
      url: `/api/entity-labels?siteId=${f.foreign.site.id}`,
      headers: f.w.owner.headers,
      payload: body,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await put(body, f.viewer.headers)).json().error.code).toBe('forbidden');
    expect((await put({ kind: 'cluster', value: 'nope', label: 'fraud' })).statusCode).toBe(404);
    for (const bad of [
      { kind: 'ip', value: '1.2.3.4', label: 'fraud' },
      { kind: 'device', value: '', label: 'fraud' },
      { kind: 'device', value: 'd', label: 'maybe' },
      { kind: 'device', value: 'd', label: 'fraud', extra: 1 },
    ]) {
      const res = await put(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect((await remove('kind=device')).statusCode).toBe(400);
    await setPlan(t.ctx.database, f.w.workspaceId, 'free');
    const plan = await put({ kind: 'cluster', value: clusterId, label: 'fraud', extra: 1 });
    expect(plan.json().error.code).toBe('plan_required');
    await setPlan(t.ctx.database, f.w.workspaceId, 'pro');
    expect(await count()).toBe(before);
  });
});
