import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUserAgent } from '../../entities/user-agent.ts';
import {
  addTestUser,
  createTestWorkspace,
  type TestUser,
  type TestWorkspace,
} from '../../testing/accounts.ts';
import { createTestApp, type TestApp, testDialects } from '../../testing/context.ts';
import { insertDecisions } from '../../testing/decision-rows.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** GET /api/entities/summary on every dialect (PostgreSQL when WARDEN_TEST_DATABASE_URL is set). */
describe.each(testDialects())('entity summaries on %s', (dialect) => {
  let t: TestApp;
  let w: TestWorkspace;
  let other: TestWorkspace;
  let viewer: TestUser;
  const ip = { asn: 16509, org: 'Amazon.com, Inc.', country: 'US', hosting: true };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    w = await createTestWorkspace(t.ctx, { plan: 'pro' });
    other = await createTestWorkspace(t.ctx);
    viewer = await addTestUser(t.ctx, { workspaceId: w.workspaceId, role: 'viewer' });
    const start = Date.UTC(2026, 2, 1);
    await insertDecisions(
      t.ctx,
      { id: w.site.id, workspaceId: w.workspaceId },
      [
        { account_id: 'a1', ip_address: '203.0.113.9', device_id: 'dv1', label: 'fraud', cluster_id: 'c1' },
        {
          account_id: 'a2',
          ip_address: '203.0.113.9',
          device_id: 'dv1',
          signals: [{ rule: 'ip_datacenter', score: 90 }],
          cluster_id: 'c1',
        },
        {
          account_id: 'a3',
          ip_address: '203.0.113.9',
          device_id: '',
          user_agent: IPHONE,
          features: { ip, subnet: '203.0.113.0/24' },
          signals: [{ rule: 'velocity_ip', score: 40 }],
          label: 'legit',
          cluster_id: 'c2',
        },
        { account_id: 'a1', ip_address: '198.51.100.1', device_id: 'dv2' },
      ],
      start,
    );
    await insertDecisions(t.ctx, { id: other.site.id, workspaceId: other.workspaceId }, [
      { account_id: 'a1', ip_address: '203.0.113.9' },
    ]);
  }, 60_000);
  afterAll(() => t?.close());

  const summary = (query: string, user: TestUser = w.owner) =>
    t.app.inject({ method: 'GET', url: `/api/entities/summary?${query}`, headers: user.headers });

  it('summarises an IP: counts, first and last seen, labels, clusters, network and user agent', async () => {
    const res = await summary(`siteId=${w.site.id}&kind=ip&value=203.0.113.9`, viewer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      siteId: w.site.id,
      kind: 'ip',
      value: '203.0.113.9',
      total: 3,
      firstSeenAt: '2026-03-01T00:00:00.000Z',
      lastSeenAt: '2026-03-01T00:02:00.000Z',
      byClassification: { human: 1, suspicious: 1, bot: 1 },
      byAction: { allow: 1, review: 1, challenge: 0, block: 1 },
      labels: { fraud: 1, legit: 1, none: 1 },
      accounts: 3,
      ips: 1,
      devices: 1,
      clusters: ['c1', 'c2'],
      network: ip,
      userAgent: { raw: IPHONE, browser: 'Safari', version: '17', os: 'iOS', kind: 'mobile' },
    });
  });

  it('summarises an account and a network with the same filter as the decisions list', async () => {
    const account = (await summary(`siteId=${w.site.id}&kind=accountId&value=a1`)).json().data;
    expect(account).toMatchObject({ total: 2, accounts: 1, ips: 2, devices: 2, network: null });
    const net = (await summary(`siteId=${w.site.id}&kind=ipPrefix&value=203.0.113.0%2F24`)).json().data;
    expect(net.total).toBe(3);
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/decisions?siteId=${w.site.id}&ipPrefix=203.0.113.0%2F24`,
      headers: w.owner.headers,
    });
    expect(listed.json().data.items).toHaveLength(net.total);
  });

  it('answers zeros for an entity never seen', async () => {
    const none = (await summary(`siteId=${w.site.id}&kind=email&value=nobody@example.com`)).json().data;
    expect(none).toMatchObject({
      total: 0,
      firstSeenAt: null,
      lastSeenAt: null,
      userAgent: null,
      clusters: [],
    });
  });

  it('answers 401, 404 for a foreign site, 400 for a bad kind or value', async () => {
    expect((await t.app.inject(`/api/entities/summary?siteId=${w.site.id}&kind=ip&value=x`)).statusCode).toBe(
      401,
    );
    expect((await summary(`siteId=${other.site.id}&kind=ip&value=203.0.113.9`)).statusCode).toBe(404);
    const badKind = await summary(`siteId=${w.site.id}&kind=phone&value=1`);
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().error.details[0].path).toBe('querystring.kind');
    const badPrefix = await summary(`siteId=${w.site.id}&kind=ipPrefix&value=nope`);
    expect(badPrefix.statusCode).toBe(400);
    expect((await summary(`siteId=${w.site.id}&kind=ip`)).statusCode).toBe(400);
  });
});

describe('parseUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      { browser: 'Edge', version: '126', os: 'Windows', kind: 'desktop' },
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
      { browser: 'HeadlessChrome', version: '120', os: 'Linux', kind: 'bot' },
    ],
    ['curl/8.4.0', { browser: 'curl', version: '8', os: 'Other', kind: 'bot' }],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0',
      { browser: 'Firefox', version: '125', os: 'macOS', kind: 'desktop' },
    ],
    ['', { browser: 'Unknown', version: null, os: 'Other', kind: 'other' }],
  ])('reads %s', (ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected);
  });
});
