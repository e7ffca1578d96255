import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../storage/db.ts';
import { openTestDatabase, testDialects } from '../testing/context.ts';
import { OutboxSignal } from '../webhooks/outbox.ts';
import { createSite, decisionRow, type SiteFixture } from '../webhooks/test-fixtures.ts';
import type { DecisionLog } from './decision-log.ts';
import { PostgresDecisionLog, SqliteDecisionLog } from './kysely-decision-log.ts';
import { openDecisionLog } from './open-decision-log.ts';
import { MAX_COVER_VALUES } from './rule-queries.ts';
import { decisionById, labelDecisions, latestDecisionOfSite } from './transaction-queries.ts';

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

  it('reads the site and label of the decisions asked for', async () => {
    await log.label('d2', 'legit', t0 + 5);
    const targets = await log.labelTargets(['d1', 'd2', 'nope']);
    expect(targets.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'd1', site_id: site.siteId, label: null },
      { id: 'd2', site_id: site.siteId, label: 'legit' },
    ]);
  });

  it('labels and reads decisions inside the transaction it is given', async () => {
    const other = await createSite(database, 'pro');
    await log.record(decisionRow(other, { id: 'o1', created_at: t0 + 2 * HOUR }));
    await database.db.transaction().execute(async (trx) => {
      await labelDecisions(trx, site.siteId, ['d1', 'd3', 'o1'], 'fraud', t0 + 9);
      expect(await latestDecisionOfSite(trx, site.siteId)).toMatchObject({ id: 'd3', label: 'fraud' });
      expect(await decisionById(trx, 'd1')).toMatchObject({ label: 'fraud', labeled_at: t0 + 9 });
    });
    // Only the named site's decisions are labelled.
    expect(await log.byId('o1')).toMatchObject({ label: null });
    expect(await latestDecisionOfSite(database.db, 'no-such-site')).toBeUndefined();
  });

  it('answers the cluster queries: site, seeds, recorded accounts, latest answer', async () => {
    const identity = (n: number) => JSON.stringify({ identity: { cluster_id: 'cl_2', linked_accounts: n } });
    await Promise.all([
      log.record(
        decisionRow(site, {
          id: 'c1',
          account_id: 'a',
          cluster_id: 'cl_2',
          created_at: t0 + 10,
          response: identity(1),
        }),
      ),
      log.record(
        decisionRow(site, {
          id: 'c2',
          account_id: 'b',
          cluster_id: 'cl_2',
          created_at: t0 + 30,
          response: identity(2),
        }),
      ),
      log.record(
        decisionRow(site, {
          id: 'c3',
          account_id: 'a',
          cluster_id: 'cl_2',
          created_at: t0 + 20,
          response: identity(3),
        }),
      ),
    ]);
    const { clusters } = log;
    expect(await clusters.siteOf('cl_2')).toBe(site.siteId);
    expect(await clusters.siteOf('cl_none')).toBeUndefined();
    expect((await clusters.seeds(site.siteId, 'cl_2', 20)).sort()).toEqual(['a', 'b']);
    expect(await clusters.seeds(site.siteId, 'cl_2', 1)).toHaveLength(1);
    expect(await clusters.recordedAccounts(site.siteId, 'cl_2', 10)).toEqual(['b', 'a']);
    expect(await clusters.recordedAccounts(site.siteId, 'cl_2', 1)).toEqual(['b']);
    expect(await clusters.latestResponse(site.siteId, 'cl_2')).toBe(identity(2));
    expect(await clusters.latestResponse(site.siteId, 'cl_none')).toBeUndefined();
  });

  it("answers the cluster queries: members' totals, an IP's first users, members' decisions", async () => {
    await Promise.all([
      log.record(
        decisionRow(site, { id: 'm1', account_id: 'b', ip_address: '198.51.100.7', created_at: t0 + 50 }),
      ),
      log.record(
        decisionRow(site, { id: 'm2', account_id: 'c', ip_address: '198.51.100.7', created_at: t0 + 40 }),
      ),
      log.record(
        decisionRow(site, { id: 'm3', account_id: 'b', ip_address: '198.51.100.7', created_at: t0 + 60 }),
      ),
      log.record(
        decisionRow(site, { id: 'm4', account_id: 'a', ip_address: '198.51.100.7', created_at: t0 + 40 }),
      ),
    ]);
    const { clusters } = log;
    const totals = await clusters.accountTotals(site.siteId, ['b', 'user-42', 'nobody']);
    expect(
      totals
        .map((t) => ({ account: t.account_id, first: Number(t.first), last: Number(t.last), n: Number(t.n) }))
        .sort((x, y) => x.account.localeCompare(y.account)),
    ).toEqual([
      { account: 'b', first: t0 + 50, last: t0 + 60, n: 2 },
      { account: 'user-42', first: t0, last: t0 + HOUR, n: 3 },
    ]);
    expect(await clusters.accountTotals(site.siteId, [])).toEqual([]);
    // First use, then the account id, breaks the tie of a and c.
    expect(await clusters.firstUsersOfIp(site.siteId, '198.51.100.7', 4)).toEqual(['a', 'c', 'b']);
    expect(await clusters.firstUsersOfIp(site.siteId, '198.51.100.7', 2)).toEqual(['a', 'c']);
    const rows = await clusters.memberDecisions(site.siteId, ['a', 'b', 'c'], t0 + 45, 10);
    expect(rows.map((r) => r.id)).toEqual(['m3', 'm1']);
    expect(rows[0]).toMatchObject({ account_id: 'b', risk_score: 72, label: null, created_at: t0 + 60 });
    expect((await clusters.memberDecisions(site.siteId, ['a', 'b', 'c'], t0, 1)).map((r) => r.id)).toEqual([
      'm3',
    ]);
    expect(await clusters.memberDecisions(site.siteId, [], t0, 10)).toEqual([]);
  });

  it('answers the rule queries: one decision of a site, backtest pages', async () => {
    const other = await createSite(database, 'pro');
    expect(await log.rules.ofSite(site.siteId, 'd2')).toEqual({
      id: 'd2',
      created_at: t0 + 1,
      event_type: 'checkout',
    });
    expect(await log.rules.ofSite(other.siteId, 'd2')).toBeUndefined();
    // Two decisions at one instant: the page boundary falls between them (created_at, then id).
    await log.record(decisionRow(site, { id: 'd0', created_at: t0 + 1 }));
    const scope = { siteId: site.siteId, from: t0, to: t0 + HOUR };
    const first = await log.rules.backtestPage(scope, null, 2);
    expect(first.map((r) => r.id)).toEqual(['d2', 'd0']);
    const last = first[1]!;
    const next = await log.rules.backtestPage(scope, { at: last.created_at, id: last.id }, 2);
    expect(next.map((r) => r.id)).toEqual(['d1']);
    expect(next[0]).toMatchObject({ action: 'challenge', risk_level: 'high', label: null });
    expect((await log.rules.backtestPage({ ...scope, decisionId: 'd1' }, null, 5)).map((r) => r.id)).toEqual([
      'd1',
    ]);
  });

  it('answers the rule queries: recorded matches, labelled decisions, mentions of a rule', async () => {
    const custom = (matched: string[], shadow: string[]) =>
      JSON.stringify({ custom_rules: { matched, shadow: shadow.map((rule) => ({ rule })) } });
    const signal = (rule: string) => JSON.stringify([{ rule, score: 10, description: rule }]);
    await Promise.all([
      log.record(
        decisionRow(site, {
          id: 'r1',
          created_at: t0 + 10,
          signals: signal('custom:big_order'),
          features: custom(['big_order'], []),
        }),
      ),
      log.record(decisionRow(site, { id: 'r2', created_at: t0 + 20, features: custom([], ['new_rule']) })),
      log.record(decisionRow(site, { id: 'r3', created_at: t0 + 30, features: custom([], []) })),
      log.record(
        decisionRow(site, { id: 'r4', created_at: t0 + 40, signals: signal('rule_timeout:big_order') }),
      ),
    ]);
    const matches = await log.rules.recordedMatches(site.siteId, t0, t0 + HOUR);
    expect(matches.map((r) => r.created_at).sort()).toEqual([t0 + 10, t0 + 20]);
    expect(await log.rules.recordedMatches(site.siteId, t0 + 11, t0 + HOUR)).toHaveLength(1);
    await log.label('r1', 'fraud', t0 + 50);
    await log.label('d1', 'legit', t0 + 50);
    const none = { accounts: [], devices: [], emails: [], payments: [], clusters: [] };
    const labeled = await log.rules.labeled(site.siteId, t0, t0 + 20, none);
    expect(labeled.map((r) => r.label).sort()).toEqual(['fraud', 'legit']);
    expect(await log.rules.labeled(site.siteId, t0 + 11, t0 + HOUR, none)).toEqual([]);
    // An entity label's cover adds the entity's unlabelled decisions (all of user-42's here).
    const covered = await log.rules.labeled(site.siteId, t0 + 11, t0 + HOUR, {
      ...none,
      accounts: ['user-42'],
    });
    expect(covered.length).toBeGreaterThanOrEqual(3);
    expect(covered.every((r) => r.account_id === 'user-42')).toBe(true);
    // A cover too large to bind reads the whole range (the label resolver filters it).
    const many = Array.from({ length: MAX_COVER_VALUES + 1 }, (_, i) => `acct-${i}`);
    const whole = await log.rules.labeled(site.siteId, t0, t0 + HOUR, { ...none, accounts: many });
    expect(whole.length).toBeGreaterThan((await log.rules.labeled(site.siteId, t0, t0 + HOUR, none)).length);
    const mentions = await log.rules.mentioning(site.siteId, 'big_order', t0);
    expect(mentions.map((r) => r.signals).sort()).toEqual(
      [signal('custom:big_order'), signal('rule_timeout:big_order')].sort(),
    );
    expect(await log.rules.mentioning(site.siteId, 'new_rule', t0)).toHaveLength(1);
    expect(await log.rules.mentioning(site.siteId, 'new_rule', t0 + 21)).toEqual([]);
  });

  it('answers the history queries: counter pages, device totals', async () => {
    await Promise.all([
      log.record(decisionRow(site, { id: 'h1', device_id: 'dev_x', risk_score: 80, created_at: t0 + HOUR })),
      log.record(decisionRow(site, { id: 'h2', device_id: '', created_at: t0 + HOUR })),
    ]);
    const { history } = log;
    const first = await history.counterPage(site.siteId, t0 + 1, null, 2);
    expect(first.map((r) => r.id)).toEqual(['h2', 'h1']);
    const next = await history.counterPage(site.siteId, t0 + 1, { at: t0 + HOUR, id: 'h1' }, 10);
    expect(next.map((r) => r.id)).toEqual(['d3', 'd2']);
    const devices = await history.deviceTotals(site.siteId, t0 + 1, 10);
    expect(
      devices
        .map((d) => ({ device: d.device_id, first: Number(d.first), n: Number(d.n), bad: Number(d.bad) }))
        .sort((a, b) => a.device.localeCompare(b.device)),
    ).toEqual([
      { device: 'dev_abc', first: t0 + 1, n: 2, bad: 2 },
      { device: 'dev_x', first: t0 + HOUR, n: 1, bad: 1 },
    ]);
  });

  it("answers the history queries: the identity graph's steps back and rows after a position", async () => {
    await log.record(decisionRow(site, { id: 'd4', created_at: t0 + HOUR }));
    const { history } = log;
    expect(await history.stepBack(site.siteId, t0, null, 1)).toEqual({ at: t0 + HOUR, id: 'd4' });
    expect(await history.stepBack(site.siteId, t0, null, 2)).toEqual({ at: t0 + HOUR, id: 'd3' });
    expect(await history.stepBack(site.siteId, t0, { at: t0 + HOUR, id: 'd3' }, 2)).toEqual({
      at: t0,
      id: 'd1',
    });
    expect(await history.stepBack(site.siteId, t0, null, 5)).toBeUndefined();
    expect(await history.stepBack(site.siteId, t0 + 1, null, 4)).toBeUndefined();
    const after = await history.identityRowsAfter(site.siteId, { at: t0 + 1, id: '' }, 10);
    expect(after.map((r) => r.id)).toEqual(['d2', 'd3', 'd4']);
    expect(after[0]).toMatchObject({
      account_id: 'user-42',
      device_id: 'dev_abc',
      ip_address: '2001:db8:1:2::7',
    });
    expect(
      (await history.identityRowsAfter(site.siteId, { at: t0 + HOUR, id: 'd3' }, 10)).map((r) => r.id),
    ).toEqual(['d4']);
    expect((await history.identityRowsAfter(site.siteId, { at: 0, id: '' }, 2)).map((r) => r.id)).toEqual([
      'd1',
      'd2',
    ]);
  });
});
