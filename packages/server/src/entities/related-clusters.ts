import { RELATED_CLUSTERS_LIMIT } from '@warden/protocol/management';
import type { ClusterDecisions, WeakKeyRow, WeakKeys } from '../decisions/cluster-queries.ts';
import { isDisposableDomain } from '../scoring/email-domains.ts';

/**
 * "Related clusters" (issue 26): other identity clusters of the site whose accounts came close to
 * this cluster's without a strong link (device, IP, card) — the same promo code, the same IPv4 /24
 * or the same e-mail domain, used within RELATED_WINDOW_MS of one of this cluster's decisions. A
 * ring split in two by careful fraudsters shows up on both pages. Weak by design: a hint to
 * investigate, never a merge.
 */
export const RELATED_WINDOW_MS = 60 * 60 * 1000;
/** Decisions of the members read for their values, and neighbours read. */
const MEMBER_SCAN_LIMIT = 2_000;
const NEIGHBOUR_SCAN_LIMIT = 5_000;
/** At most this many promo codes, prefixes and domains are looked for. */
const KEY_LIMIT = 50;
/** At most this many related clusters are answered, the most related first. */
export const RELATED_LIMIT = RELATED_CLUSTERS_LIMIT;

/** Mail providers too common to link anybody (a throwaway or company domain can). */
const COMMON_MAIL = new Set([
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'live.com',
  'icloud.com',
  'aol.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'proton.me',
  'protonmail.com',
  'mail.ru',
  'yandex.ru',
  'qq.com',
  '163.com',
]);

export type WeakLinkKind = 'promo' | 'network' | 'emailDomain';

export interface RelatedCluster {
  clusterId: string;
  /** Its accounts seen near this cluster's decisions. */
  accounts: string[];
  /** What it shares, each value with its kind, e.g. `{kind: 'promo', value: 'WELCOME10'}`. */
  shared: Array<{ kind: WeakLinkKind; value: string }>;
}

function ipv4Prefix(ip: string): string | null {
  const m = /^(?:::ffff:)?(\d{1,3}\.\d{1,3}\.\d{1,3}\.)\d{1,3}$/i.exec(ip);
  return m ? (m[1] as string) : null;
}

function domainOf(email: string | null): string | null {
  const at = email?.lastIndexOf('@') ?? -1;
  if (!email || at < 1) return null;
  const domain = email.slice(at + 1).toLowerCase();
  return COMMON_MAIL.has(domain) && !isDisposableDomain(domain) ? null : domain;
}

/** The weak keys of one decision, as `kind:value`. */
function keysOf(row: WeakKeyRow): Array<{ kind: WeakLinkKind; value: string }> {
  const out: Array<{ kind: WeakLinkKind; value: string }> = [];
  if (row.promo_code) out.push({ kind: 'promo', value: row.promo_code });
  const prefix = ipv4Prefix(row.ip_address);
  if (prefix) out.push({ kind: 'network', value: `${prefix}0/24` });
  const domain = domainOf(row.email);
  if (domain) out.push({ kind: 'emailDomain', value: domain });
  return out;
}

/** The clusters related to the one whose current members are `accounts` (ids `ownIds` excluded). */
export async function relatedClusters(
  decisions: ClusterDecisions,
  siteId: string,
  accounts: readonly string[],
  ownIds: readonly string[],
  since: number,
): Promise<RelatedCluster[]> {
  const mine = await decisions.weakKeysOf(siteId, accounts, since, MEMBER_SCAN_LIMIT);
  if (mine.length === 0) return [];
  /** When this cluster used each key: the times a neighbour must come close to. */
  const times = new Map<string, number[]>();
  for (const row of mine)
    for (const k of keysOf(row)) {
      const key = `${k.kind}:${k.value}`;
      const list = times.get(key) ?? [];
      list.push(Number(row.created_at));
      times.set(key, list);
    }
  const values = (kind: WeakLinkKind) =>
    [...times.keys()]
      .filter((k) => k.startsWith(`${kind}:`))
      .map((k) => k.slice(kind.length + 1))
      .slice(0, KEY_LIMIT);
  const keys: WeakKeys = {
    promoCodes: values('promo'),
    ipv4Prefixes: values('network').map((n) => n.slice(0, -'0/24'.length)),
    emailDomains: values('emailDomain'),
  };
  const at = mine.map((r) => Number(r.created_at));
  const neighbours = await decisions.sharingWeakKeys(
    siteId,
    keys,
    Math.min(...at) - RELATED_WINDOW_MS,
    Math.max(...at) + RELATED_WINDOW_MS,
    NEIGHBOUR_SCAN_LIMIT,
  );
  const members = new Set(accounts);
  const own = new Set(ownIds);
  const found = new Map<
    string,
    { accounts: Set<string>; shared: Map<string, RelatedCluster['shared'][number]> }
  >();
  for (const row of neighbours) {
    const clusterId = row.cluster_id;
    if (!clusterId || own.has(clusterId) || members.has(row.account_id)) continue;
    const t = Number(row.created_at);
    for (const k of keysOf(row)) {
      const key = `${k.kind}:${k.value}`;
      if (!times.get(key)?.some((u) => Math.abs(u - t) <= RELATED_WINDOW_MS)) continue;
      const entry = found.get(clusterId) ?? { accounts: new Set<string>(), shared: new Map() };
      entry.accounts.add(row.account_id);
      entry.shared.set(key, k);
      found.set(clusterId, entry);
    }
  }
  return [...found]
    .map(([clusterId, e]) => ({
      clusterId,
      accounts: [...e.accounts].sort(),
      shared: [...e.shared.values()],
    }))
    .sort((a, b) => b.shared.length - a.shared.length || b.accounts.length - a.accounts.length)
    .slice(0, RELATED_LIMIT);
}
