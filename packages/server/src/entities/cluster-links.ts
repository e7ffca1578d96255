import type { ClusterDecisions } from '../decisions/cluster-queries.ts';
import { IP_FANOUT, IP_RECENT_MS } from '../scoring/identity-graph.ts';

/**
 * What the cluster page draws, read from the recorded decisions (the decision log's cluster
 * queries, decisions/cluster-queries.ts): each member account's decisions, latest score, action and label,
 * and the devices, IP addresses and payment hashes that link two or more of the members.
 *
 * An IP links accounts under the identity graph's fan-out rule (docs/signals.md, "Identity
 * clusters"): only the first IP_FANOUT accounts that used an address are linked by it. So an
 * address used by 21 accounts links the cluster's members among its first 3 (and is marked
 * `crowded`), never the 18 that came later.
 */

/** Decisions scanned for the members' devices, IPs, payment hashes and latest decisions. */
export const CLUSTER_SCAN_LIMIT = 20_000;
/** Addresses shared by members that are checked against the fan-out rule (one small query each). */
export const IP_CHECK_LIMIT = 50;

export interface MemberDetail {
  accountId: string;
  decisions: number;
  firstSeenAt: number;
  lastSeenAt: number;
  latest: {
    decisionId: string;
    riskScore: number;
    action: string;
    classification: string;
    createdAt: number;
  } | null;
  /** The label of the member's most recently labelled decision (null: none labelled). */
  label: string | null;
}

export type LinkKind = 'device' | 'ip' | 'payment';

export interface ClusterLink {
  kind: LinkKind;
  value: string;
  /** The members this value links (two or more), in the order of `members`. */
  accounts: string[];
  /** An IP used by more than IP_FANOUT accounts of the site: it linked only its first ones. */
  crowded: boolean;
}

export interface ClusterDetail {
  members: MemberDetail[];
  devices: string[];
  ips: string[];
  paymentHashes: string[];
  links: ClusterLink[];
  /** The scan hit CLUSTER_SCAN_LIMIT rows or IP_CHECK_LIMIT addresses. */
  truncated: boolean;
}

/** Values used by two or more of the members, with the members that used each. */
function sharedValues(uses: Map<string, Set<string>>): Array<[string, Set<string>]> {
  return [...uses].filter(([, accounts]) => accounts.size >= 2);
}

function addUse(map: Map<string, Set<string>>, value: string | null, account: string): void {
  if (!value) return;
  let set = map.get(value);
  if (!set) {
    set = new Set();
    map.set(value, set);
  }
  set.add(account);
}

/**
 * The detail of a cluster whose members are `accounts` (from the identity graph): decisions of the
 * last `windowMs` supply the devices, IPs, payment hashes and links; totals cover every decision.
 */
export async function clusterDetail(
  decisions: ClusterDecisions,
  siteId: string,
  accounts: readonly string[],
  since: number,
): Promise<ClusterDetail> {
  const totals = await decisions.accountTotals(siteId, accounts);
  const rows = await decisions.memberDecisions(siteId, accounts, since, CLUSTER_SCAN_LIMIT);
  const latest = new Map<string, MemberDetail['latest']>();
  const labels = new Map<string, { label: string; at: number }>();
  const devices = new Map<string, Set<string>>();
  const ips = new Map<string, Set<string>>();
  const payments = new Map<string, Set<string>>();
  /** When each member used each IP (earliest and latest in the rows read): the 7-day half of the rule. */
  const ipUse = new Map<string, { from: number; to: number }>();
  for (const r of rows) {
    if (!latest.has(r.account_id)) {
      latest.set(r.account_id, {
        decisionId: r.id,
        riskScore: Number(r.risk_score),
        action: r.action,
        classification: r.classification,
        createdAt: Number(r.created_at),
      });
    }
    if (r.label && r.labeled_at !== null) {
      const at = Number(r.labeled_at);
      const seen = labels.get(r.account_id);
      if (!seen || at > seen.at) labels.set(r.account_id, { label: r.label, at });
    }
    addUse(devices, r.device_id, r.account_id);
    addUse(ips, r.ip_address, r.account_id);
    if (r.ip_address) {
      const key = `${r.ip_address}\u0000${r.account_id}`;
      const at = Number(r.created_at);
      const span = ipUse.get(key);
      if (!span) ipUse.set(key, { from: at, to: at });
      else {
        span.from = Math.min(span.from, at);
        span.to = Math.max(span.to, at);
      }
    }
    addUse(payments, r.payment_hash, r.account_id);
  }
  // Most recently seen first; a member without a recorded decision goes last.
  const byLast = [...totals].sort((a, b) => Number(b.last) - Number(a.last));
  const known = new Set(byLast.map((t) => t.account_id));
  const members: MemberDetail[] = [
    ...byLast.map((t) => ({
      accountId: t.account_id,
      decisions: Number(t.n),
      firstSeenAt: Number(t.first),
      lastSeenAt: Number(t.last),
      latest: latest.get(t.account_id) ?? null,
      label: labels.get(t.account_id)?.label ?? null,
    })),
    ...accounts
      .filter((a) => !known.has(a))
      .map((a) => ({
        accountId: a,
        decisions: 0,
        firstSeenAt: 0,
        lastSeenAt: 0,
        latest: null,
        label: null,
      })),
  ];
  const order = new Map(members.map((m, i) => [m.accountId, i]));
  const ordered = (set: Iterable<string>) =>
    [...set].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));

  const links: ClusterLink[] = [];
  for (const [value, users] of sharedValues(devices))
    links.push({ kind: 'device', value, accounts: ordered(users), crowded: false });
  for (const [value, users] of sharedValues(payments))
    links.push({ kind: 'payment', value, accounts: ordered(users), crowded: false });
  const sharedIps = sharedValues(ips);
  for (const [value, users] of sharedIps.slice(0, IP_CHECK_LIMIT)) {
    // The first IP_FANOUT + 1 accounts that used it on the site, in order of first use.
    const first = await decisions.firstUsersOfIp(siteId, value, IP_FANOUT + 1);
    const firstMembers = first.slice(0, IP_FANOUT).filter((a) => users.has(a));
    // The graph links two of them only when both used the IP within IP_RECENT_MS of each other.
    const span = (a: string) => ipUse.get(`${value}\u0000${a}`);
    const near = (a: string, b: string) => {
      const x = span(a);
      const y = span(b);
      return !!x && !!y && Math.max(x.from, y.from) - Math.min(x.to, y.to) <= IP_RECENT_MS;
    };
    const linking = firstMembers.filter((a) => firstMembers.some((b) => b !== a && near(a, b)));
    if (linking.length >= 2)
      links.push({ kind: 'ip', value, accounts: ordered(linking), crowded: first.length > IP_FANOUT });
  }
  return {
    members,
    devices: [...devices.keys()],
    ips: [...ips.keys()],
    paymentHashes: [...payments.keys()],
    links,
    truncated: rows.length >= CLUSTER_SCAN_LIMIT || sharedIps.length > IP_CHECK_LIMIT,
  };
}
