import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp, testDialects } from '../../testing/context.ts';
import { serverHeaders } from '../../testing/scoring-app.ts';

/** One promo ring split into two clusters: each cluster page points to the other (issue 26). */
describe.each(testDialects())('related clusters on %s', (dialect) => {
  let t: TestApp;
  let w: TestWorkspace;
  const clusters: Record<string, string> = {};
  const claim = async (account: string, card: string, ip: string, email: string, promo = 'RING50') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: serverHeaders(w.site),
      payload: {
        context: {
          event_type: 'promo_claim',
          account_id: account,
          payment_hash: card,
          ip_address: ip,
          email,
          promo_code: promo,
        },
      },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.identity.cluster_id as string;
  };
  const related = async (id: string) =>
    (await t.app.inject({ url: `/api/clusters/${id}`, headers: w.owner.headers })).json().data
      .related as Array<{
      clusterId: string;
      accounts: string[];
      shared: Array<{ kind: string; value: string }>;
    }>;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    w = await createTestWorkspace(t.ctx, { plan: 'pro' });
    // Two halves of one ring: each shares a card inside, nothing strong across (other IPs, cards).
    await claim('a1', 'card_a', '192.0.2.11', 'a1@burner.example');
    clusters.a = await claim('a2', 'card_a', '192.0.2.12', 'a2@burner.example');
    await claim('b1', 'card_b', '192.0.2.21', 'b1@burner.example');
    clusters.b = await claim('b2', 'card_b', '192.0.2.22', 'b2@burner.example');
    // Strangers: a big free-mail domain on another network, and the promo code alone.
    await claim('c1', 'card_c', '198.51.100.1', 'c1@gmail.com', 'OTHER');
    clusters.c = await claim('c2', 'card_c', '198.51.100.2', 'c2@gmail.com', 'OTHER');
    clusters.d = await claim('d1', 'card_d', '203.0.113.9', 'd1@gmail.com');
    // A ring on IPv6: two halves in one /64 (spelt differently), another code, another domain.
    await claim('e1', 'card_e', '2001:db8:7:1::11', 'e1@gmail.com', 'V6A');
    clusters.e = await claim('e2', 'card_e', '2001:db8:7:1::12', 'e2@gmail.com', 'V6A');
    await claim('f1', 'card_f', '2001:0db8:0007:0001:0:0:0:21', 'f1@gmail.com', 'V6B');
    clusters.f = await claim('f2', 'card_f', '2001:db8:7:1:0::22', 'f2@gmail.com', 'V6B');
  });
  afterAll(() => t.close());

  it("names the other half on each half's page, with what they share", async () => {
    expect(clusters.a).not.toBe(clusters.b);
    const ofA = await related(clusters.a!);
    expect(ofA[0]).toEqual({
      clusterId: clusters.b,
      accounts: ['b1', 'b2'],
      shared: expect.arrayContaining([
        { kind: 'promo', value: 'RING50' },
        { kind: 'network', value: '192.0.2.0/24' },
        { kind: 'emailDomain', value: 'burner.example' },
      ]),
    });
    // The promo code alone links the lone claimant, ranked below; gmail.com links nobody.
    expect(ofA.map((r) => r.clusterId)).toEqual([clusters.b, clusters.d]);
    expect(ofA[1]!.shared).toEqual([{ kind: 'promo', value: 'RING50' }]);
    expect((await related(clusters.b!))[0]!.clusterId).toBe(clusters.a);
    expect(await related(clusters.c!)).toEqual([]);
  });

  it('links clusters that share an IPv6 /64, whichever way the addresses are written', async () => {
    expect(clusters.e).not.toBe(clusters.f);
    expect(await related(clusters.e!)).toEqual([
      {
        clusterId: clusters.f,
        accounts: ['f1', 'f2'],
        shared: [{ kind: 'network', value: '2001:db8:7:1::/64' }],
      },
    ]);
  });
});
