import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { createTestContext } from '../testing/context.ts';
import { createEngine } from './engine.ts';
import { IP_FANOUT, SiteGraph } from './identity.ts';
import { FINGERPRINT, insertSite, makeInput, recordDecision, testSite } from './test-fixtures.ts';

const ev = (accountId: string, o: { d?: string; p?: string; ip?: string; at?: number } = {}) => ({
  accountId,
  deviceId: o.d ?? '',
  paymentHash: o.p ?? '',
  ip: o.ip ?? '',
  at: o.at ?? 1,
});

describe('identity graph', () => {
  it('gives a lone account zeros', () => {
    const g = new SiteGraph('s');
    g.observe(ev('a', { d: 'dev1', ip: '1.1.1.1', p: 'pm1' }));
    expect(g.summary('a')).toMatchObject({
      linked_accounts: 0,
      shared_devices: 0,
      shared_ips: 0,
      shared_payments: 0,
    });
    expect(g.summary('a').cluster_id).toMatch(/^cl_[0-9a-f]{20}$/);
  });

  it('links by device, payment and low-fan-out IP, and counts shared attributes', () => {
    const g = new SiteGraph('s');
    g.observe(ev('a', { d: 'dev1', at: 1 }));
    const id = g.summary('a').cluster_id;
    g.observe(ev('b', { d: 'dev1', p: 'pm1', at: 2 }));
    g.observe(ev('c', { p: 'pm1', ip: '9.9.9.9', at: 3 }));
    g.observe(ev('d', { ip: '9.9.9.9', at: 4 }));
    expect(g.summary('d')).toEqual({
      cluster_id: id,
      linked_accounts: 3,
      shared_devices: 1,
      shared_ips: 1,
      shared_payments: 1,
    });
    expect(g.summary('a').cluster_id).toBe(id);
  });

  it('keeps the cluster id of the earliest member when clusters merge', () => {
    const g = new SiteGraph('s');
    g.observe(ev('late1', { d: 'x', at: 50 }));
    g.observe(ev('late2', { d: 'x', at: 60 }));
    g.observe(ev('early', { d: 'y', at: 10 }));
    const earlyId = g.summary('early').cluster_id;
    g.observe(ev('late2', { d: 'y', at: 70 }));
    expect(g.summary('late1').cluster_id).toBe(earlyId);
    expect(g.summary('late1').linked_accounts).toBe(2);
    expect(g.summary('late1').shared_devices).toBe(2);
  });

  it('links nothing through device "" or crowded and stale IPs', () => {
    const g = new SiteGraph('s');
    g.observe(ev('a', { d: '' }));
    g.observe(ev('b', { d: '' }));
    expect(g.summary('a').linked_accounts).toBe(0);
    for (let i = 0; i <= IP_FANOUT; i++) g.observe(ev(`n${i}`, { ip: '10.0.0.1', at: 100 }));
    g.observe(ev('late', { ip: '10.0.0.1', at: 101 }));
    expect(g.summary('late').linked_accounts).toBe(0);
    g.observe(ev('old', { ip: '8.8.8.8', at: 0 }));
    g.observe(ev('new', { ip: '8.8.8.8', at: 30 * 86_400_000 }));
    expect(g.summary('new').linked_accounts).toBe(0);
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
    const engine = createEngine(ctx);
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
    const engine = createEngine(ctx);
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

    const fresh = createEngine(ctx);
    const c = makeInput(ctx, { context: { account_id: 'alice' } }, { site, ip: '' });
    expect((await fresh.score(c)).identity).toEqual(rb.identity);
  });
});
