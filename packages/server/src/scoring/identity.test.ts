import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { createTestContext, testDialects } from '../testing/context.ts';
import { testEngine } from '../testing/scoring-engine.ts';
import { clusterIdOf, IdentityClusters, identityBudgetBytes } from './identity.ts';
import { identityEvent as ev, insertIdentityRows } from './identity-fixtures.ts';
import { FINGERPRINT, insertSite, makeInput, recordDecision, testSite } from './test-fixtures.ts';

describe.each(testDialects())('identity clusters of a process (%s)', (dialect) => {
  let ctx: AppContext;
  const site = testSite('s');
  let clock = 1_800_000_000_000;
  const now = () => clock;
  beforeEach(async () => {
    clock = 1_800_000_000_000;
    ctx = await createTestContext({ now, dialect });
    await insertSite(ctx, site);
  });
  afterEach(async () => {
    await ctx.hotState.close();
    await ctx.database.close();
  });

  it('takes its share (40 %) of WARDEN_MEMORY_MB as its budget', () => {
    expect(identityBudgetBytes({ memoryBudgetBytes: 100 * 1024 * 1024 })).toBe(40 * 1024 * 1024);
    expect(new IdentityClusters(ctx).graph.budgetBytes).toBe(identityBudgetBytes(ctx.config));
  });

  it('loads the history in chunks, then never reads it again however long it runs', async () => {
    const history = [];
    for (let i = 0; i < 2_340; i++)
      history.push(ev(`h${i}`, { d: `dev${i % 1000}`, at: clock - 10_000 + i }));
    await insertIdentityRows(ctx.database, site, history);
    const clusters = new IdentityClusters(ctx, { chunkRows: 100, poll: false });
    const first = await clusters.observe('s', ev('h5', { at: clock }));
    // h5, h1005 and h2005 share dev5.
    expect(first.linked_accounts).toBe(2);
    expect(clusters.load.rows).toBe(2_340);
    expect(clusters.load.largestChunk).toBe(100);
    expect(clusters.load.queries).toBeGreaterThanOrEqual(24);
    const queries = clusters.load.queries;
    // An hour of events, a minute apart: no refresh, no reload (one process: nothing to poll).
    for (let i = 0; i < 60; i++) {
      clock += 60_000;
      await clusters.observe('s', ev(`live${i}`, { d: 'dev5', at: clock }));
    }
    expect(clusters.load.queries).toBe(queries);
    expect((await clusters.observe('s', ev('h1005', { at: clock }))).linked_accounts).toBe(62);
  });

  it('loads at most what its budget holds, the newest rows', async () => {
    const history = [];
    // The oldest pair shares a device, so does the newest pair; 3,000 rows in between.
    history.push(ev('old1', { d: 'old', at: clock - 100_000 }), ev('old2', { d: 'old', at: clock - 99_999 }));
    for (let i = 0; i < 3_000; i++) history.push(ev(`mid${i}`, { at: clock - 90_000 + i }));
    history.push(ev('new1', { d: 'new', at: clock - 2 }), ev('new2', { d: 'new', at: clock - 1 }));
    await insertIdentityRows(ctx.database, site, history);
    // About 1,000 rows' worth of budget.
    const clusters = new IdentityClusters(ctx, { budgetBytes: 150_000, chunkRows: 100, poll: false });
    expect((await clusters.observe('s', ev('new1', { at: clock }))).linked_accounts).toBe(1);
    expect(clusters.load.rows).toBeLessThanOrEqual(1_000);
    expect(clusters.load.largestChunk).toBeLessThanOrEqual(100);
    expect((await clusters.observe('s', ev('old1', { at: clock }))).linked_accounts).toBe(0);
    expect(clusters.graph.stats().bytes).toBeLessThanOrEqual(150_000);
  });

  it("sees another process's links by reading only the rows recorded since its cursor", async () => {
    await insertIdentityRows(ctx.database, site, [ev('a', { d: 'dev', at: clock - 5_000 })]);
    const clusters = new IdentityClusters(ctx, { poll: true, chunkRows: 100 });
    expect((await clusters.observe('s', ev('a', { at: clock }))).linked_accounts).toBe(0);
    // Another process scores b on the same device, and 300 unrelated events.
    const others = [ev('b', { d: 'dev', at: clock + 10 })];
    for (let i = 0; i < 300; i++) others.push(ev(`o${i}`, { at: clock + 20 + i }));
    await insertIdentityRows(ctx.database, site, others);
    const rowsBefore = clusters.load.rows;
    clock += 1_500;
    // The poll starts with this event and is read in the background; the cluster view awaits it.
    await clusters.observe('s', ev('a', { at: clock }));
    const view = await clusters.clusterOf('s', ['a'], 10);
    expect(view?.summary.linked_accounts).toBe(1);
    expect(clusters.load.rows - rowsBefore).toBeLessThanOrEqual(301 + 1);
    expect(clusters.load.largestChunk).toBeLessThanOrEqual(100);
  });

  it('resolves the accounts of an old cluster id to the cluster it merged into', async () => {
    const clusters = new IdentityClusters(ctx);
    const young = await clusters.observe('s', ev('y1', { d: 'yd', at: clock }));
    await clusters.observe('s', ev('y2', { d: 'yd', at: clock + 1 }));
    const old = await clusters.observe('s', ev('o1', { p: 'card', at: clock - 1_000 }));
    expect(young.cluster_id).toBe(clusterIdOf('s', 'y1'));
    // y2 pays with o1's card: the clusters merge under the older id.
    const merged = await clusters.observe('s', ev('y2', { p: 'card', at: clock + 2 }));
    expect(merged).toMatchObject({ cluster_id: old.cluster_id, linked_accounts: 2 });
    const view = await clusters.clusterOf('s', ['y1'], 10);
    expect(view?.id).toBe(old.cluster_id);
    expect([...(view?.accounts ?? [])].sort()).toEqual(['o1', 'y1', 'y2']);
    expect(view?.summary).toEqual(merged);
    expect(await clusters.clusterOf('s', ['nobody'], 10)).toBeNull();
  });
});

describe('identity in decisions', () => {
  let ctx: AppContext;
  const site = testSite('site_id');
  beforeEach(async () => {
    ctx = await createTestContext();
    await insertSite(ctx, site);
  });
  afterEach(async () => {
    await ctx.hotState.close();
    await ctx.database.close();
  });

  it('is present for pro/enterprise/demo only', async () => {
    const engine = testEngine(ctx);
    const free = await engine.score(
      makeInput(ctx, {}, { site, workspace: { id: 'w', plan: 'free', demo: false } }),
    );
    expect(free.identity).toBeUndefined();
    const demo = await engine.score(
      makeInput(ctx, {}, { site, workspace: { id: 'w', plan: 'free', demo: true } }),
    );
    expect(demo.identity).toMatchObject({ linked_accounts: 0 });
  });

  it('links two accounts on one device, and is rebuilt from decisions in a new process', async () => {
    const engine = testEngine(ctx);
    const a = makeInput(
      ctx,
      { fingerprint: FINGERPRINT, context: { account_id: 'alice' } },
      { site, ip: '' },
    );
    const ra = await engine.score(a);
    await recordDecision(ctx, a, ra);
    const b = makeInput(ctx, { fingerprint: FINGERPRINT, context: { account_id: 'bob' } }, { site, ip: '' });
    const rb = await engine.score(b);
    await recordDecision(ctx, b, rb);
    expect(rb.identity).toEqual({ ...ra.identity, linked_accounts: 1, shared_devices: 1 });

    const fresh = testEngine(ctx);
    const c = makeInput(ctx, { context: { account_id: 'alice' } }, { site, ip: '' });
    expect((await fresh.score(c)).identity).toEqual(rb.identity);
  });
});
