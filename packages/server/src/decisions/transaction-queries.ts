import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import type { DecisionsTable } from '../storage/scoring-schema.ts';
import { withParts } from './packed-row.ts';

/**
 * The decision log's queries that run on the executor they are given: inside another module's
 * transaction (an audited bulk label, a webhook's test delivery), where the log's own connection
 * would not see or hold that transaction.
 */

/**
 * Every column of decisions, and the workspace of its site: a packed row of format 2 stores its
 * `workspace_id` as '' (packed-row.ts), the site's is the decision's.
 */
function decisionsWithWorkspace(db: Kysely<DB>) {
  return db
    .selectFrom('decisions')
    .leftJoin('sites', 'sites.id', 'decisions.site_id')
    .selectAll('decisions')
    .select('sites.workspace_id as site_workspace_id');
}

/** The row as recorded: its JSON parts and its workspace in their places. */
function recorded(row: DecisionsTable & { site_workspace_id: string | null }): DecisionsTable {
  const { site_workspace_id, ...decision } = row;
  const parts = withParts(decision);
  return parts.workspace_id === '' && site_workspace_id !== null
    ? { ...parts, workspace_id: site_workspace_id }
    : parts;
}

/** A decision by id, its JSON parts as recorded. */
export async function decisionById(db: Kysely<DB>, id: string): Promise<DecisionsTable | undefined> {
  const row = await decisionsWithWorkspace(db).where('decisions.id', '=', id).executeTakeFirst();
  return row && recorded(row);
}

/** The site's latest recorded decision, its JSON parts as recorded. */
export async function latestDecisionOfSite(
  db: Kysely<DB>,
  siteId: string,
): Promise<DecisionsTable | undefined> {
  const row = await decisionsWithWorkspace(db)
    .where('decisions.site_id', '=', siteId)
    .orderBy('decisions.created_at', 'desc')
    .orderBy('decisions.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && recorded(row);
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
