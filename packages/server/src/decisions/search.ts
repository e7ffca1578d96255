import { isIP } from 'node:net';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { subnetKey } from '../scoring/subnet.ts';
import type { DB } from '../storage/db.ts';
import { badQuery, parseTime } from './decision-time.ts';

/**
 * The decision search filters (SPEC §9, issue 16): one definition used by the list, the export and
 * the entity summaries, on SQLite and PostgreSQL alike. Plain columns compare directly (indexed by
 * site); the JSON columns are read with each dialect's JSON functions behind a cheap LIKE prefilter.
 */
export interface DecisionFilters {
  siteId: string;
  eventType?: string | undefined;
  classification?: string | undefined;
  action?: string | undefined;
  accountId?: string | undefined;
  ip?: string | undefined;
  ipPrefix?: string | undefined;
  deviceId?: string | undefined;
  email?: string | undefined;
  emailDomain?: string | undefined;
  paymentHash?: string | undefined;
  promoCode?: string | undefined;
  clusterId?: string | undefined;
  /**
   * Resolved by the route, never a query parameter: the accounts now in the cluster `clusterId`
   * names (identity graph). Their decisions match as well as those recorded under the id.
   */
  clusterAccounts?: readonly string[] | undefined;
  signal?: string | undefined;
  /** With a custom-rule `signal`: only its live or only its shadow matches. */
  match?: 'live' | 'shadow' | undefined;
  /** Free text over the identity fields (exact or prefix). */
  q?: string | undefined;
  label?: 'fraud' | 'legit' | 'none' | undefined;
  minScore?: string | undefined;
  maxScore?: string | undefined;
  country?: string | undefined;
  asn?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export type Eb = ExpressionBuilder<DB, 'decisions'>;

/** What the two dialects write differently: reading the JSON text columns. */
export interface DecisionDialect {
  /** The text at `path` of the JSON column. */
  jsonText(column: 'features', path: string): Expression<string>;
  /** The decision's `signals` JSON array has an element whose `rule` is `rule`. */
  signalRule(rule: string): Expression<SqlBool>;
  /** The IP's country or ASN recorded in the features (`features.ip.country`, `.asn`) is `value`. */
  ipIntel(field: 'country' | 'asn', value: string): Expression<SqlBool>;
  /** The decision recorded a shadow match of the custom rule `name` (`features.custom_rules.shadow`). */
  shadowMatch(name: string): Expression<SqlBool>;
}

export const SQLITE_DECISIONS: DecisionDialect = {
  jsonText: (column, path) => sql<string>`json_extract(${sql.ref(column)}, ${`$.${path}`})`,
  signalRule: (rule) =>
    sql<SqlBool>`exists (select 1 from json_each(${sql.ref('decisions.signals')}) as s where json_extract(s.value, '$.rule') = ${rule})`,
  ipIntel: (field, value) =>
    field === 'asn'
      ? sql<SqlBool>`json_extract(${sql.ref('features')}, '$.ip.asn') = ${Number(value)}`
      : sql<SqlBool>`json_extract(${sql.ref('features')}, '$.ip.country') = ${value}`,
  shadowMatch: (name) =>
    sql<SqlBool>`exists (select 1 from json_each(${sql.ref('decisions.features')}, '$.custom_rules.shadow') as s where json_extract(s.value, '$.rule') = ${name})`,
};

export const POSTGRES_DECISIONS: DecisionDialect = {
  jsonText: (column, path) => sql<string>`(${sql.ref(column)}::json ->> ${path})`,
  signalRule: (rule) =>
    sql<SqlBool>`exists (select 1 from json_array_elements(${sql.ref('decisions.signals')}::json) as s where s ->> 'rule' = ${rule})`,
  ipIntel: (field, value) => sql<SqlBool>`(${sql.ref('features')}::json #>> ${`{ip,${field}}`}) = ${value}`,
  shadowMatch: (name) =>
    sql<SqlBool>`exists (select 1 from json_array_elements(${sql.ref('decisions.features')}::json #> '{custom_rules,shadow}') as s where s ->> 'rule' = ${name})`,
};

/** `%`, `_` and the escape character itself, escaped for `LIKE … ESCAPE '\'`. */
export function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The network of `ipPrefix`: an address or a network written as IPv4 /24 or IPv6 /64, as the
 * subnet key the scoring features record (`203.0.113.0/24`, `2001:db8:1:2::/64`).
 */
export function subnetOf(ipPrefix: string): string {
  const slash = ipPrefix.indexOf('/');
  const address = slash < 0 ? ipPrefix : ipPrefix.slice(0, slash);
  const bits = slash < 0 ? undefined : ipPrefix.slice(slash + 1);
  const version = isIP(address);
  const key = subnetKey(address);
  const expected = key.endsWith('/24') ? '24' : '64';
  if (version === 0 || key === '' || (bits !== undefined && bits !== expected))
    throw badQuery(
      'querystring.ipPrefix',
      'must be an IP address, an IPv4 /24 (203.0.113.0/24) or an IPv6 /64 (2001:db8::/64)',
    );
  return key;
}

/** The IP's country or ASN recorded in the decision's features (`features.ip.country`, `.asn`). */
function ipIntelIs(dialect: DecisionDialect, field: 'country' | 'asn', value: string): Expression<SqlBool> {
  const prefilter = sql<SqlBool>`${sql.ref('features')} like ${`%"${field}":${field === 'asn' ? value : JSON.stringify(value)}%`}`;
  return sql<SqlBool>`(${prefilter} and ${dialect.ipIntel(field, value)})`;
}

/**
 * The decision's signals include one named `rule` (a default signal, or `custom:<name>`); for a
 * custom rule, a shadow match recorded in the features counts too (a shadow rule adds no signal).
 */
function signalFired(
  eb: Eb,
  dialect: DecisionDialect,
  rule: string,
  match: DecisionFilters['match'],
): Expression<SqlBool> {
  const prefilter = sql<SqlBool>`${sql.ref('signals')} like ${`%${likeEscape(JSON.stringify(rule))}%`} escape '\\'`;
  const live = eb.and([prefilter, dialect.signalRule(rule)]);
  if (!rule.startsWith('custom:') || match === 'live') return live;
  const name = rule.slice('custom:'.length);
  const recorded = sql<SqlBool>`${sql.ref('features')} like ${`%"shadow":[{%${likeEscape(JSON.stringify(name))}%`} escape '\\'`;
  const shadow = eb.and([recorded, dialect.shadowMatch(name)]);
  return match === 'shadow' ? shadow : eb.or([live, shadow]);
}

/** Free text: a decision whose id or identity fields are `q` or start with it. */
function textMatch(eb: Eb, q: string): Expression<SqlBool> {
  const prefix = `${likeEscape(q)}%`;
  const starts = (
    column: 'id' | 'account_id' | 'device_id' | 'ip_address' | 'payment_hash' | 'promo_code' | 'cluster_id',
  ) => sql<SqlBool>`${sql.ref(column)} like ${prefix} escape '\\'`;
  return eb.or([
    starts('id'),
    starts('account_id'),
    starts('device_id'),
    starts('ip_address'),
    starts('payment_hash'),
    starts('promo_code'),
    starts('cluster_id'),
    sql<SqlBool>`lower(${sql.ref('email')}) like ${`${likeEscape(q.toLowerCase())}%`} escape '\\'`,
  ]);
}

function ipPrefixMatch(eb: Eb, dialect: DecisionDialect, ipPrefix: string): Expression<SqlBool> {
  const key = subnetOf(ipPrefix);
  if (key.endsWith('/24')) {
    // Text prefix of the dotted address (also its IPv4-mapped IPv6 form); digits and dots only.
    const head = key.slice(0, -'0/24'.length);
    return eb.or([eb('ip_address', 'like', `${head}%`), eb('ip_address', 'like', `::ffff:${head}%`)]);
  }
  // IPv6 has many spellings of one address: compare the normalised subnet the features recorded.
  return eb.and([eb('ip_address', 'like', '%:%'), eb(dialect.jsonText('features', 'subnet'), '=', key)]);
}

/** The WHERE conditions of `filters` (site included). Bad values → 400 `validation_failed`. */
export function decisionConditions(dialect: DecisionDialect, filters: DecisionFilters) {
  const from = parseTime(filters.from, 'querystring.from');
  const to = parseTime(filters.to, 'querystring.to');
  const minScore = filters.minScore === undefined ? undefined : Number(filters.minScore);
  const maxScore = filters.maxScore === undefined ? undefined : Number(filters.maxScore);
  if (minScore !== undefined && maxScore !== undefined && minScore > maxScore)
    throw badQuery('querystring.minScore', 'must not be greater than maxScore');
  if (filters.ipPrefix !== undefined) subnetOf(filters.ipPrefix);
  if (filters.match && !filters.signal?.startsWith('custom:'))
    throw badQuery('querystring.match', 'needs signal=custom:<rule>');
  return (eb: Eb): Expression<SqlBool> => {
    const all: Array<Expression<SqlBool>> = [eb('site_id', '=', filters.siteId)];
    const f = filters;
    if (f.eventType) all.push(eb('event_type', '=', f.eventType));
    if (f.classification) all.push(eb('classification', '=', f.classification));
    if (f.action) all.push(eb('action', 'in', f.action.split(',')));
    if (f.accountId) all.push(eb('account_id', '=', f.accountId));
    if (f.ip) all.push(eb('ip_address', '=', f.ip));
    if (f.ipPrefix) all.push(ipPrefixMatch(eb, dialect, f.ipPrefix));
    if (f.deviceId !== undefined) all.push(eb('device_id', '=', f.deviceId));
    if (f.email) {
      // `is not null` lets both dialects use the partial index on (site_id, lower(email)).
      all.push(eb('email', 'is not', null));
      all.push(eb(sql<string>`lower(${sql.ref('email')})`, '=', f.email.toLowerCase()));
    }
    if (f.emailDomain) {
      const domain = f.emailDomain.toLowerCase();
      all.push(eb('email', 'is not', null));
      all.push(sql<SqlBool>`lower(${sql.ref('email')}) like ${`%@${likeEscape(domain)}`} escape '\\'`);
    }
    if (f.paymentHash) all.push(eb('payment_hash', '=', f.paymentHash));
    if (f.promoCode) all.push(eb('promo_code', '=', f.promoCode));
    if (f.clusterId) {
      const recorded = eb('cluster_id', '=', f.clusterId);
      all.push(
        f.clusterAccounts?.length ? eb.or([recorded, eb('account_id', 'in', f.clusterAccounts)]) : recorded,
      );
    }
    if (f.signal) all.push(signalFired(eb, dialect, f.signal, f.match));
    if (f.q) all.push(textMatch(eb, f.q.trim()));
    if (f.label === 'none') all.push(eb('label', 'is', null));
    else if (f.label) all.push(eb('label', '=', f.label));
    if (f.country) all.push(ipIntelIs(dialect, 'country', f.country));
    if (f.asn) all.push(ipIntelIs(dialect, 'asn', f.asn));
    if (minScore !== undefined) all.push(eb('risk_score', '>=', minScore));
    if (maxScore !== undefined) all.push(eb('risk_score', '<=', maxScore));
    if (from !== undefined) all.push(eb('created_at', '>=', from));
    if (to !== undefined) all.push(eb('created_at', '<', to));
    return eb.and(all);
  };
}
