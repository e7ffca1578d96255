import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp, testDialects } from '../../testing/context.ts';
import { type DecisionRow, insertDecisions } from '../../testing/decision-rows.ts';

/** The decision search and export on every dialect (PostgreSQL when WARDEN_TEST_DATABASE_URL is set). */
describe.each(testDialects())('decision search on %s', (dialect) => {
  let t: TestApp;
  let w: TestWorkspace;
  let other: TestWorkspace;
  const rows: DecisionRow[] = [
    {
      id: 'd0',
      account_id: 'alice',
      email: 'Alice@Example.com',
      ip_address: '203.0.113.7',
      device_id: 'dev-a',
      signals: [{ rule: 'ip_datacenter', score: 30 }],
      features: { subnet: '203.0.113.0/24' },
      label: 'fraud',
      cluster_id: 'c1',
    },
    {
      id: 'd1',
      account_id: 'bob',
      email: 'bob@example.com',
      ip_address: '203.0.113.200',
      event_type: 'promo_claim',
      promo_code: 'WELCOME_10',
      signals: [{ rule: 'custom:promo_ring', score: 60 }],
      features: { subnet: '203.0.113.0/24' },
      cluster_id: 'c1',
    },
    {
      id: 'd2',
      account_id: 'carol',
      email: 'carol@other.test',
      ip_address: '2001:db8:1:2::5',
      event_type: 'checkout',
      payment_hash: 'pay_1',
      signals: [{ rule: 'velocity_ip', score: 90 }],
      features: { subnet: '2001:db8:1:2::/64' },
      label: 'legit',
    },
    {
      id: 'd3',
      account_id: 'dave',
      ip_address: '2001:0db8:0001:0002:0000:0000:0000:0009',
      signals: [{ rule: 'ip_datacenter_like', score: 10 }],
      // A shadow rule's match adds no signal: the features record it.
      features: {
        subnet: '2001:db8:1:2::/64',
        custom_rules: { matched: [], shadow: [{ rule: 'promo_ring', score: 60 }] },
      },
    },
    {
      id: 'd4',
      account_id: 'erin',
      email: 'erin@examplexcom.test',
      ip_address: '198.51.100.4',
      features: { custom_rules: { matched: [], shadow: [{ rule: 'promo_ring_2', score: 5 }] } },
    },
  ];

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    w = await createTestWorkspace(t.ctx, { plan: 'pro' });
    other = await createTestWorkspace(t.ctx);
    await insertDecisions(t.ctx, { id: w.site.id, workspaceId: w.workspaceId }, rows);
    await insertDecisions(t.ctx, { id: other.site.id, workspaceId: other.workspaceId }, [
      { id: 'x0', account_id: 'alice', ip_address: '203.0.113.7' },
    ]);
  }, 60_000);
  afterAll(() => t?.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: w.owner.headers });
  const ids = async (query: string) => {
    const res = await get(`/api/decisions?siteId=${w.site.id}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.items as Array<{ id: string }>).map((i) => i.id).sort();
  };

  it.each([
    ['&email=alice@example.COM', ['d0']],
    ['&emailDomain=example.com', ['d0', 'd1']],
    ['&emailDomain=EXAMPLE.COM', ['d0', 'd1']],
    ['&ipPrefix=203.0.113.0/24', ['d0', 'd1']],
    ['&ipPrefix=203.0.113.99', ['d0', 'd1']],
    ['&ipPrefix=2001:db8:1:2::/64', ['d2', 'd3']],
    ['&ipPrefix=2001:db8:1:2:ffff::1', ['d2', 'd3']],
    ['&paymentHash=pay_1', ['d2']],
    ['&promoCode=WELCOME_10', ['d1']],
    ['&promoCode=WELCOME%2510', []],
    ['&clusterId=c1', ['d0', 'd1']],
    ['&signal=ip_datacenter', ['d0']],
    ['&signal=custom:promo_ring', ['d1', 'd3']],
    ['&signal=custom:promo_ring_2', ['d4']],
    ['&signal=custom:promo', []],
    ['&signal=custom:promo_ring&match=live', ['d1']],
    ['&signal=custom:promo_ring&match=shadow', ['d3']],
    ['&q=ali', ['d0']],
    ['&q=ALICE@example', ['d0']],
    ['&q=203.0.113.', ['d0', 'd1']],
    ['&q=pay_1', ['d2']],
    ['&q=WELCOME', ['d1']],
    ['&q=dev-a', ['d0']],
    ['&q=d4', ['d4']],
    ['&q=%25', []],
    ['&signal=ip_datacenter_%25', []],
    ['&label=fraud', ['d0']],
    ['&label=none', ['d1', 'd3', 'd4']],
    ['&minScore=30&maxScore=60', ['d0', 'd1']],
    ['&minScore=90', ['d2']],
    ['&maxScore=0', ['d4']],
    ['&accountId=alice&signal=ip_datacenter&label=fraud&clusterId=c1', ['d0']],
    ['&eventType=promo_claim&promoCode=WELCOME_10', ['d1']],
  ])('filters %s', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('pages a filtered set with the cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(
        `/api/decisions?siteId=${w.site.id}&maxScore=60&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...res.json().data.items.map((i: { id: string }) => i.id));
      cursor = res.json().data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['d4', 'd3', 'd1', 'd0']);
  });

  it('returns the entity fields the dashboard links', async () => {
    const res = await get(`/api/decisions?siteId=${w.site.id}&promoCode=WELCOME_10`);
    expect(res.json().data.items[0]).toMatchObject({
      promoCode: 'WELCOME_10',
      paymentHash: null,
      clusterId: 'c1',
      email: 'bob@example.com',
    });
  });

  it.each([
    ['&ipPrefix=203.0.113.0/16', 'querystring.ipPrefix'],
    ['&ipPrefix=2001:db8::/48', 'querystring.ipPrefix'],
    ['&ipPrefix=not-an-ip', 'querystring.ipPrefix'],
    ['&minScore=101', 'querystring.minScore'],
    ['&minScore=70&maxScore=20', 'querystring.minScore'],
    ['&label=maybe', 'querystring.label'],
    ['&emailDomain=a@b', 'querystring.emailDomain'],
    ['&match=shadow', 'querystring.match'],
    ['&signal=ip_datacenter&match=live', 'querystring.match'],
    ['&signal=custom:x&match=both', 'querystring.match'],
  ])('answers 400 for %s', async (query, path) => {
    const res = await get(`/api/decisions?siteId=${w.site.id}${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  describe('export', () => {
    it('streams a filtered CSV with a header, newest first, formulas neutralised', async () => {
      await insertDecisions(t.ctx, { id: w.site.id, workspaceId: w.workspaceId }, [
        {
          id: 'd5',
          account_id: '=HYPERLINK("x")',
          ip_address: '192.0.2.1',
          created_at: Date.UTC(2025, 0, 1),
        },
      ]);
      const res = await get(`/api/decisions/export?siteId=${w.site.id}&format=csv&maxScore=60`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="decisions-.*\.csv"$/);
      const lines = res.body.trimEnd().split('\r\n');
      expect(lines[0]!.split(',').slice(0, 4)).toEqual(['id', 'createdAt', 'eventType', 'accountId']);
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['d4', 'd3', 'd1', 'd0', 'd5']);
      expect(lines[5]).toContain(`,"'=HYPERLINK(""x"")",`);
      expect(lines[4]).toContain(',ip_datacenter,fraud,');
    });

    it('streams JSON lines across several database pages', async () => {
      const many = Array.from({ length: 1203 }, (_, i) => ({
        id: `bulk${String(i).padStart(4, '0')}`,
        account_id: 'bulk',
        created_at: Date.UTC(2024, 0, 1) + i,
      }));
      await insertDecisions(t.ctx, { id: w.site.id, workspaceId: w.workspaceId }, many);
      const res = await get(`/api/decisions/export?siteId=${w.site.id}&format=json&accountId=bulk`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      const items = res.body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(items).toHaveLength(1203);
      expect(items[0]).toMatchObject({ id: 'bulk1202', accountId: 'bulk', siteId: w.site.id });
      expect(new Set(items.map((i) => i.id)).size).toBe(1203);
    });

    it('checks the site and the filters before streaming', async () => {
      const foreign = await get(`/api/decisions/export?siteId=${other.site.id}&format=csv`);
      expect(foreign.statusCode).toBe(404);
      const bad = await get(`/api/decisions/export?siteId=${w.site.id}&format=xml`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details[0].path).toBe('querystring.format');
      const badPrefix = await get(`/api/decisions/export?siteId=${w.site.id}&format=csv&ipPrefix=x`);
      expect(badPrefix.statusCode).toBe(400);
      const anonymous = await t.app.inject(`/api/decisions/export?siteId=${w.site.id}&format=csv`);
      expect(anonymous.statusCode).toBe(401);
    });
  });
});
