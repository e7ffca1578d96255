import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import { serverHeaders } from '../../testing/scoring-app.ts';
import { setPlan } from '../../webhooks/test-fixtures.ts';

describe('GET /api/clusters/{id}', () => {
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
    return res.json().data as { identity?: { cluster_id: string; linked_accounts: number } };
  };
  beforeAll(async () => {
    t = await createTestApp();
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
    expect(data).toMatchObject({ id: clusterId, siteId: w.site.id, truncated: false });
    expect([...data.accounts].sort()).toEqual(['alice', 'bob', 'carol']);
    expect([...data.ips].sort()).toEqual(['198.51.100.1', '198.51.100.2']);
    expect(data.paymentHashes).toEqual(['pm_1']);
    expect(data.decisions).toBeGreaterThanOrEqual(2);
    expect(Date.parse(data.firstSeenAt)).toBeLessThanOrEqual(Date.parse(data.lastSeenAt));
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
