import { sql } from 'kysely';
import type { Database } from '../storage/db.ts';
import { PACKED_COLUMNS, withParts } from './packed-row.ts';

/** Where a scan of a site's decisions stands: at this (created_at, id). */
export interface DecisionPosition {
  at: number;
  id: string;
}

/**
 * The decision log's queries of what a process rebuilds from recent decisions when it starts: the
 * hot-state counters (scoring/history-rebuild.ts) and the identity graph (scoring/identity.ts),
 * each read page by page in (created_at, id) order. Reached as `ctx.services.decisions.history`
 * (the identity graph, built before the services, makes its own over the same database).
 */
export class HistoryDecisions {
  constructor(private readonly database: Database) {}

  /** Up to `limit` of the site's decisions since `since` older than `before`, newest first. */
  async counterPage(siteId: string, since: number, before: DecisionPosition | null, limit: number) {
    let query = this.database.db
      .selectFrom('decisions')
      .select([
        'id',
        'account_id',
        'ip_address',
        'device_id',
        'payment_hash',
        'email',
        'event_type',
        'user_agent',
        'order_amount',
        ...PACKED_COLUMNS,
      ])
      .where('site_id', '=', siteId)
      .where('created_at', '>=', since);
    if (before) {
      const { at, id } = before;
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]),
      );
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(withParts);
  }

  /**
   * Per device of the site's decisions since `since` (at most `limit` devices): its first decision,
   * how many, and how many scored 60 or more.
   */
  deviceTotals(siteId: string, since: number, limit: number) {
    return this.database.db
      .selectFrom('decisions')
      .select((eb) => [
        'device_id',
        eb.fn.min<number>('created_at').as('first'),
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>(eb.case().when('risk_score', '>=', 60).then(1).else(0).end()).as('bad'),
      ])
      .where('site_id', '=', siteId)
      .where('device_id', '!=', '')
      .where('created_at', '>=', since)
      .groupBy('device_id')
      .limit(limit)
      .execute();
  }

  /**
   * The position `step` decisions back (newest first) from `before` (null: the newest) among the
   * site's decisions since `since`; undefined when there are fewer. Reads the index only.
   */
  async stepBack(
    siteId: string,
    since: number,
    before: DecisionPosition | null,
    step: number,
  ): Promise<DecisionPosition | undefined> {
    const q = this.database.db
      .selectFrom('decisions')
      .select(['created_at', 'id'])
      .where('site_id', '=', siteId)
      .where('created_at', '>=', since);
    const row = await (before ? q.where(sql<boolean>`(created_at, id) < (${before.at}, ${before.id})`) : q)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .offset(step - 1)
      .executeTakeFirst();
    return row && { at: Number(row.created_at), id: row.id };
  }

  /** Up to `limit` of the site's decisions after `after`, oldest first: what the identity graph links. */
  identityRowsAfter(siteId: string, after: DecisionPosition, limit: number) {
    return this.database.db
      .selectFrom('decisions')
      .select(['id', 'account_id', 'device_id', 'payment_hash', 'ip_address', 'created_at'])
      .where('site_id', '=', siteId)
      .where(sql<boolean>`(created_at, id) > (${after.at}, ${after.id})`)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(limit)
      .execute();
  }
}
