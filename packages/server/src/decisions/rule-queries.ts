import { type SqlBool, sql } from 'kysely';
import type { EntityCover } from '../entities/label-resolver.ts';
import type { Database } from '../storage/db.ts';
import type { DecisionsTable } from '../storage/scoring-schema.ts';
import { PACKED_COLUMNS, withParts } from './packed-row.ts';

/** The columns a backtest replays of a recorded decision (rules/backtest.ts). */
export type BacktestRow = Pick<
  DecisionsTable,
  | 'id'
  | 'event_type'
  | 'account_id'
  | 'email'
  | 'ip_address'
  | 'user_agent'
  | 'device_id'
  | 'payment_hash'
  | 'promo_code'
  | 'order_amount'
  | 'risk_score'
  | 'risk_level'
  | 'classification'
  | 'action'
  | 'signals'
  | 'features'
  | 'response'
  | 'label'
  | 'rule_input'
  | 'created_at'
  | 'cluster_id'
>;

/** The most entity values `labeled` binds as parameters (SQLite allows 32,766 per statement). */
export const MAX_COVER_VALUES = 10_000;

/** Which recorded decisions a backtest reads: a site's in `[from, to)`, or only one of them. */
export interface BacktestScope {
  siteId: string;
  from: number;
  to: number;
  decisionId?: string | undefined;
}

/**
 * The decision log's queries behind custom rules: the backtest's pages, the recorded matches of the
 * hit counts and the labelled decisions of a rule's precision. Reached as
 * `ctx.services.decisions.rules`.
 */
export class RuleDecisions {
  constructor(private readonly database: Database) {}

  /** The stored decision `id` of `siteId` (what a draft rule is tried on). */
  ofSite(siteId: string, id: string) {
    return this.database.db
      .selectFrom('decisions')
      .select(['id', 'created_at', 'event_type'])
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .executeTakeFirst();
  }

  /** Up to `limit` decisions of the scope, newest first, older than `before` (created_at, id). */
  async backtestPage(
    scope: BacktestScope,
    before: { at: number; id: string } | null,
    limit: number,
  ): Promise<BacktestRow[]> {
    let q = this.database.db
      .selectFrom('decisions')
      .select([
        'event_type',
        'account_id',
        'email',
        'ip_address',
        'user_agent',
        'payment_hash',
        'promo_code',
        'order_amount',
        'label',
        ...PACKED_COLUMNS,
        'cluster_id',
      ])
      .where('site_id', '=', scope.siteId)
      .where('created_at', '>=', scope.from)
      .where('created_at', '<', scope.to)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit);
    if (scope.decisionId !== undefined) q = q.where('id', '=', scope.decisionId);
    if (before) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(before.at, before.id)));
    return (await q.execute()).map(withParts);
  }

  /** The decisions of a site in `[from, to)` that recorded a custom-rule match, live or shadow. */
  recordedMatches(siteId: string, from: number, to: number) {
    return this.database.db
      .selectFrom('decisions')
      .select(['features', 'created_at'])
      .where('site_id', '=', siteId)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .where(sql<SqlBool>`features like '%"custom_rules"%'`)
      .where((eb) => eb.or([eb('signals', 'like', '%"custom:%'), eb('features', 'like', '%"shadow":[{%')]))
      .execute();
  }

  /**
   * The decisions of a site in `[from, to)` that carry a label of their own or belong to an entity
   * of `cover` (entities/label-resolver.ts tells which label each counts with).
   */
  labeled(siteId: string, from: number, to: number, cover: EntityCover) {
    const q = this.database.db
      .selectFrom('decisions')
      .select([
        'label',
        'signals',
        'features',
        'account_id',
        'device_id',
        'email',
        'payment_hash',
        'cluster_id',
      ])
      .where('site_id', '=', siteId)
      .where('created_at', '>=', from)
      .where('created_at', '<', to);
    // Past this many values (bound parameters) the range is read whole; the resolver filters it.
    if (Object.values(cover).reduce((n, values) => n + values.length, 0) > MAX_COVER_VALUES)
      return q.execute();
    return q
      .where((eb) =>
        eb.or([
          eb('label', 'is not', null),
          ...(cover.accounts.length ? [eb('account_id', 'in', cover.accounts)] : []),
          ...(cover.devices.length ? [eb('device_id', 'in', cover.devices)] : []),
          ...(cover.emails.length ? [eb(sql<string>`lower(${sql.ref('email')})`, 'in', cover.emails)] : []),
          ...(cover.payments.length ? [eb('payment_hash', 'in', cover.payments)] : []),
          ...(cover.clusters.length ? [eb('cluster_id', 'in', cover.clusters)] : []),
        ]),
      )
      .execute();
  }

  /**
   * The site's decisions since `since` whose signals or features name the rule `name` (a live
   * match, a timeout or a shadow match; the caller checks which).
   */
  mentioning(siteId: string, name: string, since: number) {
    return this.database.db
      .selectFrom('decisions')
      .select(['signals', 'features'])
      .where('site_id', '=', siteId)
      .where('created_at', '>=', since)
      .where((eb) =>
        eb.or([
          eb('signals', 'like', `%"custom:${name}"%`),
          eb('signals', 'like', `%"rule_timeout:${name}"%`),
          eb('features', 'like', `%${name}%`),
        ]),
      )
      .execute();
  }
}
