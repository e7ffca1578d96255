import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp, testDialects } from '../../testing/context.ts';
import { serverHeaders } from '../../testing/scoring-app.ts';
import { setPlan } from '../../webhooks/test-fixtures.ts';

describe.each(testDialects())('GET /api/clusters/{id} on %s', (dialect) => {
  let t: TestApp;
  let w: TestWorkspace;
  let foreign: TestWorkspace;
  let clusterId = '';
  const verify = async (context: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: serverHeaders(w.site),
      payload: { context },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data as {
      identity?: { cluster_id: string; linked_accounts: number; shared_ips?: number };
    };
  };
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    w = await createTestWorkspace(t.ctx, { plan: 'pro' });
    foreign = await createTestWorkspace(t.ctx, { plan: 'pro' });
    // Three accounts linked by one card and then by one address; a fourth stands alone.
    await verify({
      event_type: 'checkout',
      account_id: 'alice',
      payment_hash: 'pm_1',
      ip_address: '198.51.100.1',
    });
    await verify({
      event_type: 'checkout',
      account_id: 'bob',
      payment_hash: 'pm_1',
      ip_address: '198.51.100.2',
    });
    const last = await verify({ event_type: 'login', account_id: 'carol', ip_address: '198.51.100.2' });
    await verify({ event_type: 'login', account_id: 'dave', ip_address: '198.51.100.9' });
    expect(last.identity?.linked_accounts).toBe(2);
    clusterId = last.identity!.cluster_id;
  });
  afterAll(() => t.close());

  const get = (id: string, headers = w.owner.headers) =>
    t.app.inject({ url: `/api/clusters/${id}`, headers });

  it('lists the accounts, devices, addresses and cards of the cluster', async () => {
    const res = await get(clusterId);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      id: clusterId,
      siteId: w.site.id,
      accountCount: 3,
      sharedIps: 1,
      truncated: false,
    });
    expect([...data.accounts].sort()).toEqual(['alice', 'bob', 'carol']);
    expect([...data.ips].sort()).toEqual(['198.51.100.1', '198.51.100.2']);
    expect(data.paymentHashes).toEqual(['pm_1']);
    expect(data.decisions).toBeGreaterThanOrEqual(2);
    expect(Date.parse(data.firstSeenAt)).toBeLessThanOrEqual(Date.parse(data.lastSeenAt));
  });

  it('answers an old id with the cluster it merged into, members from the graph', async () => {
    const pay = (account: string, card: string, n: number) =>
      verify({
        event_type: 'checkout',
        account_id: account,
        payment_hash: card,
        ip_address: `203.0.113.${n}`,
      });
    await pay('p1', 'card_a', 1);
    await pay('p2', 'card_a', 2);
    await pay('q1', 'card_b', 3);
    const younger = (await pay('q2', 'card_b', 4)).identity!;
    expect(younger.linked_accounts).toBe(1);
    // q2 pays with p's card: the younger cluster merges into the older one.
    const merged = (await pay('q2', 'card_a', 4)).identity!;
    expect(merged.linked_accounts).toBe(3);
    expect(merged.cluster_id).not.toBe(younger.cluster_id);

    const res = await get(younger.cluster_id);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      id: merged.cluster_id,
      requestedId: younger.cluster_id,
      accountCount: merged.linked_accounts + 1,
      sharedPayments: 2,
      truncated: false,
    });
    expect([...data.accounts].sort()).toEqual(['p1', 'p2', 'q1', 'q2']);
    expect([...data.paymentHashes].sort()).toEqual(['card_a', 'card_b']);
    const current = (await get(merged.cluster_id)).json().data;
    expect(current).toMatchObject({ id: merged.cluster_id, requestedId: merged.cluster_id, accountCount: 4 });
    expect(current.accounts).toEqual(data.accounts);
    // The decision list filtered by the old id lists every current member's decisions, also those
    // of p1 and p2 (never scored under that id), as many as the cluster page counts.
    const list = await t.app.inject({
      url: `/api/decisions?siteId=${w.site.id}&clusterId=${younger.cluster_id}&limit=100`,
      headers: w.owner.headers,
    });
    const listed = list.json().data.items as Array<{ accountId: string }>;
    expect([...new Set(listed.map((d) => d.accountId))].sort()).toEqual(['p1', 'p2', 'q1', 'q2']);
    expect(listed).toHaveLength(data.decisions);
    // The pivot card of that filter counts the same decisions.
    const card = await t.app.inject({
      url: `/api/entities/summary?siteId=${w.site.id}&kind=clusterId&value=${younger.cluster_id}`,
      headers: w.owner.headers,
    });
    expect(card.json().data.total).toBe(listed.length);
  });

  it('lists each member with its latest decision and the values that link members', async () => {
    const data = (await get(clusterId)).json().data;
    const byId = new Map(data.members.map((m: { accountId: string }) => [m.accountId, m]));
    expect([...byId.keys()]).toEqual(data.accounts);
    expect(byId.get('carol')).toMatchObject({
      decisions: 1,
      label: null,
      latest: { action: expect.any(String), riskScore: expect.any(Number) },
    });
    const links = data.links.map((l: { kind: string; value: string; accounts: string[] }) => [
      l.kind,
      l.value,
      [...l.accounts].sort(),
    ]);
    expect(links.sort()).toEqual([
      ['ip', '198.51.100.2', ['bob', 'carol']],
      ['payment', 'pm_1', ['alice', 'bob']],
    ]);
    // The counts are the links drawn (the decision page shows the same numbers).
    expect(data).toMatchObject({ sharedIps: 1, sharedPayments: 1, sharedDevices: 0 });
    expect(data.accountCount).toBe(data.members.length);
  });

  it('links through an IP only its first 3 accounts (the fan-out rule), marked crowded', async () => {
    for (const n of [1, 2, 3, 4, 5, 6]) {
      await verify({ event_type: 'signup', account_id: `wave${n}`, ip_address: '192.0.2.77' });
    }
    const last = await verify({ event_type: 'login', account_id: 'wave1', ip_address: '192.0.2.77' });
    const data = (await get(last.identity!.cluster_id)).json().data;
    expect([...data.accounts].sort()).toEqual(['wave1', 'wave2', 'wave3']);
    expect(data.sharedIps).toBe(1);
    expect(data.links).toEqual([
      { kind: 'ip', value: '192.0.2.77', accounts: expect.any(Array), crowded: true },
    ]);
    expect([...data.links[0].accounts].sort()).toEqual(['wave1', 'wave2', 'wave3']);
    // A later account of the crowded address stands alone.
    const late = await verify({ event_type: 'login', account_id: 'wave6', ip_address: '192.0.2.77' });
    expect(late.identity?.linked_accounts).toBe(0);
  });

  it('lists an IP as a link only between members who used it within 7 days of each other', async () => {
    const card = { event_type: 'checkout', payment_hash: 'pm_far', ip_address: '192.0.2.99' };
    await verify({ ...card, account_id: 'early' });
    const realNow = t.ctx.now;
    // Same card (one cluster), same IP, but 8 days later: the IP links no one.
    t.ctx.now = () => realNow() + 8 * 24 * 3600 * 1000;
    let later: Awaited<ReturnType<typeof verify>>;
    try {
      later = await verify({ ...card, account_id: 'late' });
    } finally {
      t.ctx.now = realNow;
    }
    expect(later.identity?.shared_ips).toBe(0);
    const data = (await get(later.identity!.cluster_id)).json().data;
    expect([...data.accounts].sort()).toEqual(['early', 'late']);
    expect(data.links.map((l: { kind: string }) => l.kind)).toEqual(['payment']);
    expect(data.sharedIps).toBe(0);
  });

  it("answers 404 for unknown, malformed and other workspaces' clusters (SPEC §10: 401 → 404)", async () => {
    expect((await get('cl_0000000000')).statusCode).toBe(404);
    expect((await get(clusterId, foreign.owner.headers)).statusCode).toBe(404);
    const bad = await get('not-a-cluster');
    expect(bad.statusCode).toBe(404);
    expect(bad.json().error.code).toBe('not_found');
    expect((await t.app.inject({ url: `/api/clusters/${clusterId}` })).statusCode).toBe(401);
  });

  it('needs the Pro or Enterprise plan (402)', async () => {
    await setPlan(t.ctx.database, w.workspaceId, 'free');
    try {
      const res = await get(clusterId);
      expect(res.statusCode).toBe(402);
      expect(res.json().error.code).toBe('plan_required');
    } finally {
      await setPlan(t.ctx.database, w.workspaceId, 'pro');
    }
  });
});
