import type { Cluster } from '../api/types.ts';

/**
 * The cluster page's graph, laid out without a graph library: accounts in a left column, the
 * devices, IPs and payment hashes that link them in a right column (in the order of the first
 * account they link, so lines mostly run straight), one line per use. Pure, for tests.
 */
export const ROW = 34;
export const PAD = 24;
export const WIDTH = 680;

/** Where the columns go and how long labels may be: the wide layout, and one that fits a phone. */
export interface GraphGeometry {
  width: number;
  accountX: number;
  valueX: number;
  /** Characters of an account's label (left of its dot) and a value's label (right of its box). */
  accountChars: number;
  valueChars: number;
}

export const WIDE_GRAPH: GraphGeometry = {
  width: WIDTH,
  accountX: 220,
  valueX: 430,
  accountChars: 28,
  valueChars: 22,
};
/** Drawn 1:1 in about 340 CSS pixels (a 390-px phone's card): every column and label stays in view. */
export const NARROW_GRAPH: GraphGeometry = {
  width: 340,
  accountX: 110,
  valueX: 200,
  accountChars: 12,
  valueChars: 12,
};

export type LinkKind = Cluster['links'][number]['kind'];

export interface AccountNode {
  id: string;
  x: number;
  y: number;
  score: number | null;
  label: 'fraud' | 'legit' | null;
}

export interface ValueNode {
  key: string;
  kind: LinkKind;
  value: string;
  crowded: boolean;
  x: number;
  y: number;
}

export interface Edge {
  account: string;
  value: string;
  kind: LinkKind;
  crowded: boolean;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface ClusterLayout {
  geometry: GraphGeometry;
  width: number;
  height: number;
  accounts: AccountNode[];
  values: ValueNode[];
  edges: Edge[];
}

function column(n: number, height: number): number[] {
  const top = (height - (n - 1) * ROW) / 2;
  return Array.from({ length: n }, (_, i) => top + i * ROW);
}

export function clusterLayout(
  cluster: Pick<Cluster, 'members' | 'links'>,
  geometry: GraphGeometry = WIDE_GRAPH,
): ClusterLayout {
  const members = cluster.members;
  const order = new Map(members.map((m, i) => [m.accountId, i]));
  const first = (accounts: string[]) => Math.min(...accounts.map((a) => order.get(a) ?? members.length));
  const links = [...cluster.links].sort((a, b) => first(a.accounts) - first(b.accounts));
  const rows = Math.max(members.length, links.length, 1);
  const height = PAD * 2 + (rows - 1) * ROW;
  const ys = column(members.length, height);
  const vs = column(links.length, height);
  const accounts: AccountNode[] = members.map((m, i) => ({
    id: m.accountId,
    x: geometry.accountX,
    y: ys[i]!,
    score: m.latest ? m.latest.riskScore : null,
    label: m.label,
  }));
  const at = new Map(accounts.map((a) => [a.id, a]));
  const values: ValueNode[] = links.map((l, i) => ({
    key: `${l.kind}:${l.value}`,
    kind: l.kind,
    value: l.value,
    crowded: l.crowded,
    x: geometry.valueX,
    y: vs[i]!,
  }));
  const edges: Edge[] = [];
  links.forEach((l, i) => {
    const v = values[i]!;
    for (const account of l.accounts) {
      const a = at.get(account);
      if (!a) continue;
      edges.push({
        account,
        value: l.value,
        kind: l.kind,
        crowded: l.crowded,
        x1: a.x,
        y1: a.y,
        x2: v.x,
        y2: v.y,
      });
    }
  });
  return { geometry, width: geometry.width, height, accounts, values, edges };
}

/** A long id shortened in the middle for a graph label. */
export function shortLabel(value: string, max = 22): string {
  return value.length <= max ? value : `${value.slice(0, max - 9)}…${value.slice(-8)}`;
}
