import type { Kysely } from 'kysely';
import type { IdentityService } from '../scoring/identity.ts';
import type { DB } from '../storage/db.ts';

/** Accounts a cluster id was recorded on, tried in turn to find the cluster in the graph. */
export const SEED_LIMIT = 20;
/** At most this many current members widen a `clusterId` filter of the decision list. */
export const FILTER_MEMBER_LIMIT = 1_000;

/** Up to SEED_LIMIT accounts whose decisions on the site carry `clusterId` (the `decisions` SQL of it). */
export async function clusterSeeds(db: Kysely<DB>, siteId: string, clusterId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('decisions')
    .select('account_id')
    .distinct()
    .where('site_id', '=', siteId)
    .where('cluster_id', '=', clusterId)
    .limit(SEED_LIMIT)
    .execute();
  return rows.map((r) => r.account_id);
}

/**
 * The accounts that are now in the cluster(s) of the accounts recorded under `clusterId`, from the
 * identity graph (an id of a cluster that merged into another leads to the merged cluster's
 * members, who may never have been scored under that id). Empty when the graph knows none.
 */
export async function currentClusterAccounts(
  db: Kysely<DB>,
  identity: IdentityService,
  siteId: string,
  clusterId: string,
  limit = FILTER_MEMBER_LIMIT,
): Promise<string[]> {
  const out = new Set<string>();
  for (const seed of await clusterSeeds(db, siteId, clusterId)) {
    if (out.has(seed)) continue;
    const view = await identity.clusterOf(siteId, [seed], limit);
    for (const account of view?.accounts ?? []) {
      if (out.size >= limit) return [...out];
      out.add(account);
    }
  }
  return [...out];
}
