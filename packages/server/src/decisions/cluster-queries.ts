import { type SqlBool, sql } from 'kysely';
import type { Database } from '../storage/db.ts';
import { PACKED_COLUMNS, unpackDecision } from './packed-row.ts';
import { likeEscape } from './search.ts';

/** What the cluster page reads of the members' decisions (entities/cluster-links.ts). */
export interface ClusterScanRow {
  id: string;
  account_id: string;
  device_id: string;
  ip_address: string;
  payment_hash: string | null;
  risk_score: number;
  action: string;
  classification: string;
  label: string | null;
  labeled_at: number | null;
  created_at: number;
}

/** What a weak link between clusters is made of (entities/related-clusters.ts). */
export interface WeakKeyRow {
  account_id: string;
  cluster_id?: string | null | undefined;
  ip_address: string;
  email: string | null;
  promo_code: string | null;
  created_at: number;
}

/**
 * The values a related cluster may share: promo codes, IPv4 /24 prefixes (`203.0.113.`), IPv6 /64
 * networks as the features record them (`2001:db8:1:2::/64`), e-mail domains.
 */
export interface WeakKeys {
  promoCodes: string[];
  ipv4Prefixes: string[];
  ipv6Subnets: string[];
  emailDomains: string[];
}

/** Decisions of each account, and its first and last ones (numbers as the driver returns them). */
export interface AccountTotals {
  account_id: string;
  first: number | string;
  last: number | string;
  n: number | string;
}

/**
 * The decision log's queries behind identity clusters (the cluster routes, the `clusterId` filter
 * and entities/): which accounts and sites an id was recorded on, and what the members' decisions
 * say. Reached as `ctx.services.decisions.clusters`.
 */
export class ClusterDecisions {
  constructor(private readonly database: Database) {}

  /** The site of a decision that carries `clusterId` (undefined: none does). */
  async siteOf(clusterId: string): Promise<string | undefined> {
    const found = await this.database.db
      .selectFrom('decisions')
      .select('site_id')
      .where('cluster_id', '=', clusterId)
      .limit(1)
      .executeTakeFirst();
    return found?.site_id;
  }

  /** Up to `limit` accounts whose decisions on the site carry `clusterId`. */
  async seeds(siteId: string, clusterId: string, limit: number): Promise<string[]> {
    const rows = await this.database.db
      .selectFrom('decisions')
      .select('account_id')
      .distinct()
      .where('site_id', '=', siteId)
      .where('cluster_id', '=', clusterId)
      .limit(limit)
      .execute();
    return rows.map((r) => r.account_id);
  }

  /** Up to `limit` accounts scored under `clusterId`, most recently scored first. */
  async recordedAccounts(siteId: string, clusterId: string, limit: number): Promise<string[]> {
    const rows = await this.database.db
      .selectFrom('decisions')
      .select((eb) => ['account_id', eb.fn.max('created_at').as('last')])
      .where('site_id', '=', siteId)
      .where('cluster_id', '=', clusterId)
      .groupBy('account_id')
      .orderBy('last', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => r.account_id);
  }

  /** The recorded answer (Decision JSON) of the latest decision under `clusterId`. */
  async latestResponse(siteId: string, clusterId: string): Promise<string | undefined> {
    const latest = await this.database.db
      .selectFrom('decisions')
      .select(PACKED_COLUMNS)
      .where('site_id', '=', siteId)
      .where('cluster_id', '=', clusterId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return latest && unpackDecision(latest).response;
  }

  /** Per-account totals over all recorded decisions of the accounts (any age). */
  async accountTotals(siteId: string, accounts: readonly string[]): Promise<AccountTotals[]> {
    if (accounts.length === 0) return [];
    return this.database.db
      .selectFrom('decisions')
      .select((eb) => [
        'account_id',
        eb.fn.max('created_at').as('last'),
        eb.fn.min('created_at').as('first'),
        eb.fn.countAll<number | string>().as('n'),
      ])
      .where('site_id', '=', siteId)
      .where('account_id', 'in', accounts)
      .groupBy('account_id')
      .execute();
  }

  /** The first `limit` accounts that used `ip` on the site, in order of first use. */
  async firstUsersOfIp(siteId: string, ip: string, limit: number): Promise<string[]> {
    const rows = await this.database.db
      .selectFrom('decisions')
      .select((eb) => ['account_id', eb.fn.min('created_at').as('first')])
      .where('site_id', '=', siteId)
      .where('ip_address', '=', ip)
      .groupBy('account_id')
      .orderBy('first', 'asc')
      .orderBy('account_id', 'asc')
      .limit(limit)
      .execute();
    return rows.map((r) => r.account_id);
  }

  /** Up to `limit` decisions of the accounts since `since`, newest first. */
  async memberDecisions(
    siteId: string,
    accounts: readonly string[],
    since: number,
    limit: number,
  ): Promise<ClusterScanRow[]> {
    if (accounts.length === 0) return [];
    return this.database.db
      .selectFrom('decisions')
      .select([
        'id',
        'account_id',
        'device_id',
        'ip_address',
        'payment_hash',
        'risk_score',
        'action',
        'classification',
        'label',
        'labeled_at',
        'created_at',
      ])
      .where('site_id', '=', siteId)
      .where('account_id', 'in', accounts)
      .where('created_at', '>=', since)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Up to `limit` decisions of the accounts since `since`: the values their weak links are made of. */
  weakKeysOf(
    siteId: string,
    accounts: readonly string[],
    since: number,
    limit: number,
  ): Promise<WeakKeyRow[]> {
    if (accounts.length === 0) return Promise.resolve([]);
    return this.database.db
      .selectFrom('decisions')
      .select(['account_id', 'ip_address', 'email', 'promo_code', 'created_at'])
      .where('site_id', '=', siteId)
      .where('account_id', 'in', accounts)
      .where('created_at', '>=', since)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Up to `limit` decisions of the site in `[from, to]` recorded in a cluster that share one of
   * `keys` (same promo code, IPv4 /24 or IPv6 /64, e-mail domain), newest first.
   */
  sharingWeakKeys(
    siteId: string,
    keys: WeakKeys,
    from: number,
    to: number,
    limit: number,
  ): Promise<WeakKeyRow[]> {
    const { promoCodes, ipv4Prefixes, ipv6Subnets, emailDomains } = keys;
    if (promoCodes.length + ipv4Prefixes.length + ipv6Subnets.length + emailDomains.length === 0)
      return Promise.resolve([]);
    return this.database.db
      .selectFrom('decisions')
      .select(['account_id', 'cluster_id', 'ip_address', 'email', 'promo_code', 'created_at'])
      .where('site_id', '=', siteId)
      .where('created_at', '>=', from)
      .where('created_at', '<=', to)
      .where('cluster_id', 'is not', null)
      .where((eb) =>
        eb.or([
          ...(promoCodes.length ? [eb('promo_code', 'in', promoCodes)] : []),
          ...ipv4Prefixes.map((p) => eb('ip_address', 'like', `${p}%`)),
          // An IPv6 address has many spellings: the /64 the features recorded (the facets column).
          ...ipv6Subnets.map(
            (n) =>
              sql<SqlBool>`${sql.ref('features')} like ${`%"subnet":${likeEscape(JSON.stringify(n))}%`} escape '\\'`,
          ),
          ...emailDomains.map(
            (d) => sql<SqlBool>`lower(${sql.ref('email')}) like ${`%@${likeEscape(d)}`} escape '\\'`,
          ),
        ]),
      )
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }
}
