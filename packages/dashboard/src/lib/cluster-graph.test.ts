import { describe, expect, it } from 'vitest';
import type { Cluster } from '../api/types.ts';
import { clusterLayout, NARROW_GRAPH, shortLabel } from './cluster-graph.ts';

const member = (accountId: string, score: number | null, label: 'fraud' | 'legit' | null = null) => ({
  accountId,
  decisions: 1,
  firstSeenAt: null,
  lastSeenAt: null,
  latest:
    score === null
      ? null
      : {
          decisionId: `d_${accountId}`,
          riskScore: score,
          action: 'review',
          classification: 'suspicious',
          createdAt: '',
        },
  label,
});

describe('clusterLayout', () => {
  const cluster: Pick<Cluster, 'members' | 'links'> = {
    members: [member('a', 80, 'fraud'), member('b', 20), member('c', null)],
    links: [
      { kind: 'ip', value: '192.0.2.1', accounts: ['b', 'c'], crowded: true },
      { kind: 'payment', value: 'pm_1', accounts: ['a', 'b'], crowded: false },
    ],
  };

  it('puts accounts left and linking values right, one edge per use', () => {
    const l = clusterLayout(cluster);
    expect(l.accounts.map((a) => [a.id, a.score, a.label])).toEqual([
      ['a', 80, 'fraud'],
      ['b', 20, null],
      ['c', null, null],
    ]);
    // Values follow the first account they link: the card (a) before the address (b).
    expect(l.values.map((v) => v.key)).toEqual(['payment:pm_1', 'ip:192.0.2.1']);
    expect(l.edges.map((e) => `${e.account}-${e.value}`)).toEqual([
      'a-pm_1',
      'b-pm_1',
      'b-192.0.2.1',
      'c-192.0.2.1',
    ]);
    expect(l.edges.find((e) => e.value === '192.0.2.1')?.crowded).toBe(true);
    for (const a of l.accounts) expect(a.x).toBeLessThan(l.values[0]!.x);
    for (const e of l.edges) {
      expect(e.y1).toBeGreaterThan(0);
      expect(e.y2).toBeLessThan(l.height);
    }
  });

  it('sizes to the longer column and copes with no links', () => {
    const l = clusterLayout({ members: [member('solo', 5)], links: [] });
    expect(l.accounts).toHaveLength(1);
    expect(l.edges).toEqual([]);
    expect(l.height).toBeGreaterThan(0);
  });

  it('shortens long labels in the middle', () => {
    expect(shortLabel('short')).toBe('short');
    const long = shortLabel('0123456789abcdef0123456789abcdef');
    expect(long.length).toBeLessThanOrEqual(22);
    expect(long.endsWith('89abcdef')).toBe(true);
  });
});

describe('the narrow cluster graph', () => {
  it('keeps both columns and their labels inside a phone-sized width', () => {
    const members = ['alice', 'bob', 'carol'].map((id) => ({
      accountId: id,
      decisions: 1,
      firstSeenAt: null,
      lastSeenAt: null,
      latest: null,
      label: null,
    }));
    const l = clusterLayout(
      {
        members,
        links: [
          { kind: 'payment', value: 'pm_'.padEnd(40, 'x'), accounts: ['alice', 'bob'], crowded: false },
        ],
      },
      NARROW_GRAPH,
    );
    expect(l.width).toBe(340);
    // A value's label (box + ~7 px per character of its kind and value) ends inside the width.
    const value = l.values[0]!;
    expect(value.x + 18 + 7 * ('card '.length + NARROW_GRAPH.valueChars)).toBeLessThanOrEqual(l.width + 20);
    // An account's label (right-aligned left of its dot) starts at or after 0.
    expect(l.accounts[0]!.x - 20 - 7 * NARROW_GRAPH.accountChars).toBeGreaterThanOrEqual(0);
  });
});
