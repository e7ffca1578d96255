import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../storage/db.ts';
import { openTestDatabase, testDialects } from '../testing/context.ts';
import { OutboxSignal } from '../webhooks/outbox.ts';
import { createSite, decisionRow, type SiteFixture } from '../webhooks/test-fixtures.ts';
import { type DecisionLog, openDecisionLog } from './decision-log.ts';
import { PostgresDecisionLog, SqliteDecisionLog } from './kysely-decision-log.ts';

/** One conformance suite for every DecisionLog implementation (PostgreSQL when WARDEN_TEST_DATABASE_URL is set). */
describe.each(testDialects())('decision log on %s', (dialect) => {
  let database: Database;
  let log: DecisionLog;
  let site: SiteFixture;
  const HOUR = 3_600_000;
  const t0 = Date.UTC(2026, 0, 1, 10, 0, 0);

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    log = openDecisionLog(database, new OutboxSignal());
    site = await createSite(database, 'pro');
    const signals = (rule: string) => JSON.stringify([{ rule, score: 10, description: rule }]);
    await Promise.all([
      log.record(decisionRow(site, { id: 'd1', created_at: t0, signals: signals('headless') })),
      log.record(
        decisionRow(site, {
          id: 'd2',
          created_at: t0 + 1,
          classification: 'bot',
          action: 'block',
          email: 'A@Example.com',
          ip_address: '2001:db8:1:2::7',
          features: JSON.stringify({ subnet: '2001:db8:1:2::/64' }),
          signals: signals('datacenter_ip'),
        }),
      ),
      log.record(
        decisionRow(site, {
          id: 'd3',
          created_at: t0 + HOUR,
          event_type: 'login',
          cluster_id: 'cl_1',
          signals: signals('velocity'),
        }),
      ),
    ]);
  });
  afterEach(() => database.close());

  it('is the implementation of its dialect', () => {
    expect(log).toBeInstanceOf(dialect === 'postgres' ? PostgresDecisionLog : SqliteDecisionLog);
  });

  it('records and reads a decision by id', async () => {
    expect(await log.byId('d2')).toMatchObject({ id: 'd2', site_id: site.siteId, action: 'block' });
    expect(await log.byId('nope')).toBeUndefined();
  });

  it('pages newest first after a cursor', async () => {
    const first = await log.page({ siteId: site.siteId }, ['id', 'created_at'], 2);
    expect(first.map((r) => r.id)).toEqual(['d3', 'd2']);
    const last = first[1]!;
    const next = await log.page({ siteId: site.siteId }, ['id'], 2, {
      createdAt: Number(last.created_at),
      id: last.id,
    });
    expect(next.map((r) => r.id)).toEqual(['d1']);
  });

  it('filters on JSON columns and text alike in both dialects', async () => {
    const ids = async (filters: Record<string, string>) =>
      (await log.page({ siteId: site.siteId, ...filters }, ['id'], 10)).map((r) => r.id);
    expect(await ids({ signal: 'datacenter_ip' })).toEqual(['d2']);
    expect(await ids({ signal: 'headless' })).toEqual(['d1']);
    expect(await ids({ ipPrefix: '2001:db8:1:2::/64' })).toEqual(['d2']);
    expect(await ids({ email: 'a@example.COM' })).toEqual(['d2']);
    expect(await ids({ emailDomain: 'example.com' })).toEqual(['d2']);
    expect(await ids({ clusterId: 'cl_1' })).toEqual(['d3']);
    expect(await ids({ eventType: 'login' })).toEqual(['d3']);
    expect(await ids({ label: 'none' })).toEqual(['d3', 'd2', 'd1']);
    expect(() => log.checkFilters({ siteId: site.siteId, ipPrefix: 'nope' })).toThrow();
  });

  it('labels a decision', async () => {
    await log.label('d1', 'fraud', t0 + 5);
    expect(await log.byId('d1')).toMatchObject({ label: 'fraud', labeled_at: t0 + 5 });
    expect((await log.page({ siteId: site.siteId, label: 'fraud' }, ['id'], 10)).map((r) => r.id)).toEqual([
      'd1',
    ]);
  });

  it('counts by hour, classification, action and event type', async () => {
    const counts = await log.hourlyCounts(site.siteId, t0, t0 + 2 * HOUR);
    const h0 = Math.floor(t0 / HOUR);
    expect(counts.byEventType.sort((a, b) => a.k.localeCompare(b.k))).toEqual([
      { k: 'checkout', n: 2 },
      { k: 'login', n: 1 },
    ]);
    expect(
      counts.byClassification.sort((a, b) => a.h - b.h || a.classification.localeCompare(b.classification)),
    ).toEqual([
      { h: h0, classification: 'bot', n: 1 },
      { h: h0, classification: 'suspicious', n: 1 },
      { h: h0 + 1, classification: 'suspicious', n: 1 },
    ]);
    expect(counts.byAction.filter((r) => r.action === 'block')).toEqual([{ h: h0, action: 'block', n: 1 }]);
    expect((await log.hourlyCounts(site.siteId, t0 + 1, t0 + HOUR)).byEventType).toEqual([
      { k: 'checkout', n: 1 },
    ]);
  });

  it('aggregates the decisions matching filters', async () => {
    const all = await log.aggregate({ siteId: site.siteId });
    expect(all).toMatchObject({ total: 3, first: t0, last: t0 + HOUR, accounts: 1, ips: 2, devices: 1 });
    expect(all.clusters).toEqual(['cl_1']);
    expect(all.latest).toMatchObject({ user_agent: 'Mozilla/5.0' });
    expect(all.groups.reduce((n, g) => n + g.n, 0)).toBe(3);
    const none = await log.aggregate({ siteId: site.siteId, accountId: 'nobody' });
    expect(none).toMatchObject({ total: 0, first: null, last: null, clusters: [], latest: undefined });
  });
});
