import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp, testDialects } from '../../testing/context.ts';
import { insertDecisions } from '../../testing/decision-rows.ts';

/** GET /api/stats/top, GET /api/rules/hits and the country/ASN filters on every dialect. */
describe.each(testDialects())('overview top lists and rule hits on %s', (dialect) => {
  let t: TestApp;
  let w: TestWorkspace;
  const day = Date.UTC(2026, 5, 10);
  const HOUR = 3_600_000;
  const aws = { asn: 16509, org: 'Amazon.com, Inc.', country: 'US', hosting: true };
  const de = { asn: 3320, org: 'Deutsche Telekom AG', country: 'DE', hosting: false };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    w = await createTestWorkspace(t.ctx, { plan: 'pro' });
    const site = { id: w.site.id, workspaceId: w.workspaceId };
    await insertDecisions(t.ctx, site, [
      // The previous day: one decision from AWS with ip_datacenter.
      {
        created_at: day - 2 * HOUR,
        ip_address: '203.0.113.9',
        email: 'x@Promo.example',
        features: { ip: aws },
        signals: [{ rule: 'ip_datacenter', score: 30 }],
      },
      // The day: three from AWS (one IP twice), one from Germany.
      {
        created_at: day + HOUR,
        ip_address: '203.0.113.9',
        email: 'a@promo.example',
        features: { ip: aws, custom_rules: { matched: ['fast'], shadow: [] } },
        signals: [
          { rule: 'ip_datacenter', score: 30 },
          { rule: 'custom:fast', score: 20 },
        ],
      },
      {
        created_at: day + 2 * HOUR,
        ip_address: '203.0.113.9',
        email: 'b@promo.example',
        features: {
          ip: aws,
          custom_rules: { matched: [], shadow: [{ rule: 'maybe', score: 5, action: null }] },
        },
        signals: [{ rule: 'ip_datacenter', score: 30 }],
      },
      {
        created_at: day + 20 * HOUR,
        ip_address: '203.0.113.77',
        email: 'c@mail.example',
        features: {
          ip: aws,
          custom_rules: { matched: ['fast'], shadow: [{ rule: 'maybe', score: 5, action: null }] },
        },
        signals: [{ rule: 'custom:fast', score: 20 }],
      },
      { created_at: day + 3 * HOUR, ip_address: '198.51.100.4', features: { ip: de }, signals: [] },
    ]);
  }, 60_000);
  afterAll(() => t?.close());

  const range = `from=${new Date(day).toISOString()}&to=${new Date(day + 24 * HOUR).toISOString()}`;

  it('lists the top values of the period with their counts in the period before', async () => {
    const res = await t.app.inject({
      url: `/api/stats/top?siteId=${w.site.id}&${range}`,
      headers: w.owner.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d.previousFrom).toBe(new Date(day - 24 * HOUR).toISOString());
    expect(d.signals).toEqual([{ key: 'ip_datacenter', label: null, count: 2, previous: 1 }]);
    expect(d.rules).toEqual([{ key: 'fast', label: null, count: 2, previous: 0 }]);
    expect(d.ips).toEqual([
      { key: '203.0.113.9', label: null, count: 2, previous: 1 },
      { key: '198.51.100.4', label: null, count: 1, previous: 0 },
      { key: '203.0.113.77', label: null, count: 1, previous: 0 },
    ]);
    expect(d.asns).toEqual([
      { key: '16509', label: 'Amazon.com, Inc.', count: 3, previous: 1 },
      { key: '3320', label: 'Deutsche Telekom AG', count: 1, previous: 0 },
    ]);
    expect(d.countries).toEqual([
      { key: 'US', label: null, count: 3, previous: 1 },
      { key: 'DE', label: null, count: 1, previous: 0 },
    ]);
    expect(d.emailDomains).toEqual([
      { key: 'promo.example', label: null, count: 2, previous: 1 },
      { key: 'mail.example', label: null, count: 1, previous: 0 },
    ]);
  });

  it('filters decisions by the country and ASN a top list links to', async () => {
    const list = async (q: string) =>
      (
        await t.app.inject({ url: `/api/decisions?siteId=${w.site.id}&${q}`, headers: w.owner.headers })
      ).json();
    expect((await list('asn=16509')).data.items).toHaveLength(4);
    expect((await list(`asn=3320&${range}`)).data.items).toHaveLength(1);
    expect((await list('country=DE')).data.items).toHaveLength(1);
    const bad = await t.app.inject({
      url: `/api/decisions?siteId=${w.site.id}&country=germany`,
      headers: w.owner.headers,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('counts each rule’s live and shadow hits with a series', async () => {
    const res = await t.app.inject({
      url: `/api/rules/hits?siteId=${w.site.id}&${range}&buckets=2`,
      headers: w.owner.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.rules).toEqual({
      fast: {
        live: 2,
        shadow: 0,
        series: [
          { live: 1, shadow: 0 },
          { live: 1, shadow: 0 },
        ],
      },
      maybe: {
        live: 0,
        shadow: 2,
        series: [
          { live: 0, shadow: 1 },
          { live: 0, shadow: 1 },
        ],
      },
    });
  });

  it('refuses bad windows and other workspaces', async () => {
    const bad = (q: string) => t.app.inject({ url: q, headers: w.owner.headers });
    expect((await bad(`/api/stats/top?siteId=${w.site.id}&limit=0`)).statusCode).toBe(400);
    expect((await bad(`/api/rules/hits?siteId=${w.site.id}&buckets=99`)).statusCode).toBe(400);
    const inverted = await bad(
      `/api/rules/hits?siteId=${w.site.id}&from=${new Date(day).toISOString()}&to=${new Date(day - 1).toISOString()}`,
    );
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json().error.details[0].path).toBe('querystring.from');
    const other = await createTestWorkspace(t.ctx);
    expect(
      (await t.app.inject({ url: `/api/stats/top?siteId=${w.site.id}`, headers: other.owner.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: `/api/rules/hits?siteId=${w.site.id}`, headers: other.owner.headers }))
        .statusCode,
    ).toBe(404);
  });
});
