import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { Member } from './identity-entries.ts';
import { identityEvent as ev } from './identity-fixtures.ts';
import { IdentityGraph, IP_FANOUT } from './identity-graph.ts';

const MB = 1024 * 1024;

function counts(g: IdentityGraph, id: string) {
  const m = g.peek(0, id);
  if (!m) throw new Error(`${id} is not remembered`);
  return g.counts(m);
}

describe('identity graph', () => {
  it('gives a lone account its own key and zeros', () => {
    const g = new IdentityGraph(MB);
    g.observe(0, ev('a', { d: 'dev1', ip: '1.1.1.1', p: 'pm1' }));
    expect(counts(g, 'a')).toEqual({ key: 'a', size: 1, devices: 0, payments: 0, ips: 0 });
  });

  it('links by device, payment and low-fan-out IP, and counts shared attributes', () => {
    const g = new IdentityGraph(MB);
    g.observe(0, ev('a', { d: 'dev1', at: 1 }));
    g.observe(0, ev('b', { d: 'dev1', p: 'pm1', at: 2 }));
    g.observe(0, ev('c', { p: 'pm1', ip: '9.9.9.9', at: 3 }));
    g.observe(0, ev('d', { ip: '9.9.9.9', at: 4 }));
    expect(counts(g, 'd')).toEqual({ key: 'a', size: 4, devices: 1, payments: 1, ips: 1 });
    expect(counts(g, 'a').key).toBe('a');
    expect([...g.members(g.peek(0, 'c')!, 10)].sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('is idempotent: observing the same events again changes nothing', () => {
    const g = new IdentityGraph(MB);
    const events = [
      ev('a', { d: 'x', ip: '5.5.5.5', at: 1 }),
      ev('b', { d: 'x', p: 'card', ip: '5.5.5.5', at: 2 }),
      ev('c', { p: 'card', at: 3 }),
    ];
    for (const e of events) g.observe(0, e);
    const before = counts(g, 'c');
    for (const e of [...events, ...events.reverse()]) g.observe(0, e);
    expect(counts(g, 'c')).toEqual(before);
    expect(before).toEqual({ key: 'a', size: 3, devices: 1, payments: 1, ips: 1 });
  });

  it('keys a merged cluster by its earliest member, whichever side is larger', () => {
    const g = new IdentityGraph(MB);
    g.observe(0, ev('late1', { d: 'x', at: 50 }));
    g.observe(0, ev('late2', { d: 'x', at: 60 }));
    g.observe(0, ev('late3', { d: 'x', at: 61 }));
    g.observe(0, ev('early', { d: 'y', at: 10 }));
    expect(counts(g, 'late1').key).toBe('late1');
    g.observe(0, ev('late2', { d: 'y', at: 70 }));
    expect(counts(g, 'late1')).toEqual({ key: 'early', size: 4, devices: 2, payments: 0, ips: 0 });
    expect(counts(g, 'early').key).toBe('early');
  });

  it('links nothing through device "" or crowded and stale IPs', () => {
    const g = new IdentityGraph(MB);
    g.observe(0, ev('a', { d: '' }));
    g.observe(0, ev('b', { d: '' }));
    expect(counts(g, 'a').size).toBe(1);
    for (let i = 0; i <= IP_FANOUT; i++) g.observe(0, ev(`n${i}`, { ip: '10.0.0.1', at: 100 }));
    g.observe(0, ev('late', { ip: '10.0.0.1', at: 101 }));
    expect(counts(g, 'late').size).toBe(1);
    g.observe(0, ev('old', { ip: '8.8.8.8', at: 0 }));
    g.observe(0, ev('new', { ip: '8.8.8.8', at: 30 * 86_400_000 }));
    expect(counts(g, 'new').size).toBe(1);
  });

  it('keeps sites apart', () => {
    const g = new IdentityGraph(MB);
    g.observe(0, ev('a', { d: 'x' }));
    g.observe(1, ev('b', { d: 'x' }));
    expect(counts(g, 'a').size).toBe(1);
    expect(g.counts(g.peek(1, 'b')!).size).toBe(1);
  });
});

describe('identity graph under a memory budget', () => {
  it('stays under its budget over a stream of 200,000 distinct entities', () => {
    const budget = 2 * MB;
    const g = new IdentityGraph(budget);
    let most = 0;
    for (let i = 0; i < 200_000; i++) {
      g.observe(
        0,
        ev(`account-${i}`, {
          d: `dev_${i}`,
          p: `pay_${i}`,
          ip: `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`,
        }),
      );
      most = Math.max(most, g.stats().bytes);
    }
    const s = g.stats();
    expect(most).toBeLessThanOrEqual(budget);
    expect(s.evicted).toBeGreaterThan(700_000);
    // What is left is the most recent: the last account is remembered, the first is not.
    expect(g.peek(0, 'account-199999')).not.toBeNull();
    expect(g.peek(0, 'account-0')).toBeNull();
  });

  it('forgets the least recently used, and a forgotten account leaves its cluster', () => {
    // Room for a few dozen entries.
    const g = new IdentityGraph(8_000);
    g.observe(0, ev('ring1', { d: 'shared', at: 1 }));
    g.observe(0, ev('ring2', { d: 'shared', at: 2 }));
    expect(counts(g, 'ring2')).toMatchObject({ key: 'ring1', size: 2, devices: 1 });
    let i = 0;
    // Others come and go; ring2 and the device stay in use, ring1 does not.
    while (g.peek(0, 'ring1')) {
      g.observe(0, ev(`other${i++}`, { at: 3 }));
      if (i % 5 === 0) g.observe(0, ev('ring2', { d: 'shared', at: 4 }));
    }
    expect(counts(g, 'ring2')).toMatchObject({ key: 'ring1', size: 1, devices: 1 });
    expect(g.members(g.peek(0, 'ring2')!, 10)).toEqual(['ring2']);
    // ring1 comes back through the remembered device: it rejoins the same cluster.
    g.observe(0, ev('ring1', { d: 'shared', at: 5 }));
    expect(counts(g, 'ring1')).toMatchObject({ key: 'ring1', size: 2, devices: 1 });
    expect([...g.members(g.peek(0, 'ring1')!, 10)].sort()).toEqual(['ring1', 'ring2']);
  });

  it('uncounts a forgotten shared device and never counts below zero', () => {
    const g = new IdentityGraph(8_000);
    g.observe(0, ev('a', { d: 'dev', p: 'card', at: 1 }));
    g.observe(0, ev('b', { d: 'dev', p: 'card', at: 2 }));
    const b: Member = g.peek(0, 'b')!;
    // Enough other events to flush every entry not in use (b stays in use, without the device).
    for (let i = 0; i < 500; i++) {
      g.observe(0, ev(`x${i}`, { at: 3 }));
      if (i % 3 === 0) g.observe(0, ev('b', { at: 4 }));
    }
    expect(g.peek(0, 'a')).toBeNull();
    expect(g.peek(0, 'b')).toBe(b);
    const c = g.counts(b);
    expect(c.devices).toBe(0);
    expect(c.payments).toBe(0);
    expect(c.size).toBe(1);
  });
});

describe("identity graph's accounting", () => {
  // The heap is measured after full collections: gc() made callable for this test.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;

  /** Keys shaped like production's (bench/soak.ts's high-cardinality stream), one event each. */
  function event(n: number, kinds: string) {
    return ev(`soak_acct_${n}`, {
      d: kinds.includes('d') ? `dev_${((n * 2654435761) >>> 0).toString(16).padStart(12, '0')}` : '',
      p: kinds.includes('p') ? `pm_soak_${n.toString(36)}` : '',
      ip: kinds.includes('i')
        ? `${11 + ((n >>> 24) & 63)}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`
        : '',
      at: 1_700_000_000_000 + n,
    });
  }

  it.each(['a', 'ad', 'ap', 'ai', 'adpi'])(
    'takes no more heap than its budget once full (%s: accounts, devices, payments, IPs)',
    (kinds) => {
      const budget = 8 * MB;
      gc();
      const before = process.memoryUsage().heapUsed;
      const g = new IdentityGraph(budget);
      let most = 0;
      for (let n = 0; n < 120_000; n++) {
        g.observe(1, event(n, kinds));
        // Once full (evicting), the heap it holds at several points of its churn.
        if (n >= 60_000 && n % 10_000 === 0) {
          gc();
          most = Math.max(most, process.memoryUsage().heapUsed - before);
        }
      }
      expect(g.stats().evicted).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(budget);
      // And the estimate is not wildly pessimistic either: the budget is used.
      expect(most).toBeGreaterThan(budget * 0.75);
    },
  );
});
