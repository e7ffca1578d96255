import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import type { DecisionsTable } from '../storage/scoring-schema.ts';
import { withParts } from './packed-row.ts';

/**
 * The decision log's queries that run on the executor they are given: inside another module's
 * transaction (an audited bulk label, a webhook's test delivery), where the log's own connection
 * would not see or hold that transaction.
 */

/** A decision by id, its JSON parts as recorded. */
export async function decisionById(db: Kysely<DB>, id: string): Promise<DecisionsTable | undefined> {
  const row = await db.selectFrom('decisions').selectAll().where('id', '=', id).executeTakeFirst();
  return row && withParts(row);
}

/** The site's latest recorded decision, its JSON parts as recorded. */
export async function latestDecisionOfSite(
  db: Kysely<DB>,
  siteId: string,
): Promise<DecisionsTable | undefined> {
  const row = await db
    .selectFrom('decisions')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && withParts(row);
}

/** Set one label on decisions of one site. */
export async function labelDecisions(
  db: Kysely<DB>,
  siteId: string,
  ids: readonly string[],
  label: string,
  at: number,
): Promise<void> {
  await db
    .updateTable('decisions')
    .set({ label, labeled_at: at })
    .where('site_id', '=', siteId)
    .where('id', 'in', ids)
    .execute();
}
