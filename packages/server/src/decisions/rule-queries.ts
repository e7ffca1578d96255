import { type SqlBool, sql } from 'kysely';
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
>;

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

  /** The labelled decisions of a site in `[from, to)`. */
  labeled(siteId: string, from: number, to: number) {
    return this.database.db
      .selectFrom('decisions')
      .select(['label', 'signals', 'features'])
      .where('site_id', '=', siteId)
      .where('label', 'is not', null)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
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
