import type { TopDimension, TopEntry } from '@warden/protocol/management';
import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../storage/db.ts';
import type { Dialect } from '../storage/migrations/types.ts';

/**
 * The overview's "top" lists (issue 16): which signals, custom rules, IP addresses, networks
 * (ASN), countries and e-mail domains a site's decisions had most in a period, each with its count
 * in the period before, of the same length. Plain SQL over the `decisions` table, one grouped query
 * per dimension and period, on SQLite and PostgreSQL (JSON columns read with each dialect's JSON
 * functions).
 */

interface Source {
  /** The FROM clause (signals are one row per signal of a decision). */
  from: RawBuilder<unknown>;
  key: RawBuilder<unknown>;
  label: RawBuilder<unknown> | null;
  /** Extra condition on the key. */
  where: RawBuilder<unknown>;
}

function sourceOf(dialect: Dialect, dimension: TopDimension): Source {
  const pg = dialect === 'postgres';
  const rule = pg ? sql`(s ->> 'rule')` : sql`json_extract(s.value, '$.rule')`;
  const signalFrom = pg
    ? sql`decisions cross join json_array_elements(decisions.signals::json) as s`
    : sql`decisions, json_each(decisions.signals) as s`;
  const feature = (path: string) =>
    pg
      ? sql`(decisions.features::json #>> ${`{${path.replace('.', ',')}}`})`
      : sql`json_extract(decisions.features, ${`$.${path}`})`;
  const plain = sql`decisions`;
  switch (dimension) {
    case 'signals':
      return { from: signalFrom, key: rule, label: null, where: sql`${rule} not like 'custom:%'` };
    case 'rules':
      return {
        from: signalFrom,
        key: pg ? sql`substr(${rule}, 8)` : sql`substr(${rule}, 8)`,
        label: null,
        where: sql`${rule} like 'custom:%'`,
      };
    case 'ips':
      return { from: plain, key: sql`ip_address`, label: null, where: sql`ip_address <> ''` };
    case 'asns':
      return {
        from: plain,
        key: pg ? feature('ip.asn') : sql`cast(${feature('ip.asn')} as text)`,
        label: sql`max(${feature('ip.org')})`,
        where: sql`${feature('ip.asn')} is not null and features like '%"asn":%'`,
      };
    case 'countries':
      return {
        from: plain,
        key: feature('ip.country'),
        label: null,
        where: sql`${feature('ip.country')} is not null and features like '%"country":"%'`,
      };
    case 'emailDomains': {
      const domain = pg
        ? sql`split_part(lower(email), '@', 2)`
        : sql`substr(lower(email), instr(email, '@') + 1)`;
      return { from: plain, key: domain, label: null, where: sql`email is not null and email like '%@%'` };
    }
  }
}

/** What the top values read: the database and its dialect (the SQL differs). */
export interface TopValuesDeps {
  readonly database: Pick<Database, 'db' | 'dialect'>;
}

async function grouped(
  ctx: TopValuesDeps,
  dimension: TopDimension,
  siteId: string,
  range: { from: number; to: number },
  limit: number,
  onlyKeys: string[] | null,
): Promise<Array<{ k: string; label: string | null; n: number }>> {
  const s = sourceOf(ctx.database.dialect, dimension);
  const keyFilter =
    onlyKeys === null ? sql`` : sql`and ${s.key} in (${sql.join(onlyKeys.map((k) => sql`${k}`))})`;
  const query = sql<{ k: string; label: string | null; n: number }>`
    select ${s.key} as k, ${s.label ?? sql`null`} as label, count(*) as n
    from ${s.from}
    where decisions.site_id = ${siteId} and decisions.created_at >= ${range.from}
      and decisions.created_at < ${range.to} and ${s.where} ${keyFilter}
    group by 1
    order by n desc, k asc
    limit ${limit}`;
  const { rows } = await query.execute(ctx.database.db);
  return rows.map((r) => ({
    k: String(r.k),
    label: r.label === null ? null : String(r.label),
    n: Number(r.n),
  }));
}

/** The top `limit` values of one dimension in `[from, to)`, with their counts in the period before. */
export async function topDecisionValues(
  ctx: TopValuesDeps,
  dimension: TopDimension,
  siteId: string,
  range: { from: number; to: number },
  limit: number,
): Promise<TopEntry[]> {
  const current = await grouped(ctx, dimension, siteId, range, limit, null);
  if (current.length === 0) return [];
  const span = range.to - range.from;
  const before = await grouped(
    ctx,
    dimension,
    siteId,
    { from: range.from - span, to: range.from },
    limit,
    current.map((r) => r.k),
  );
  const previous = new Map(before.map((r) => [r.k, r.n]));
  return current.map((r) => ({ key: r.k, label: r.label, count: r.n, previous: previous.get(r.k) ?? 0 }));
}
