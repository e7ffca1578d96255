import type { ClusterDecisions } from '../decisions/cluster-queries.ts';
import type { IdentityService } from '../scoring/identity.ts';

/** Accounts a cluster id was recorded on, tried in turn to find the cluster in the graph. */
export const SEED_LIMIT = 20;
/** At most this many current members widen a `clusterId` filter of the decision list. */
export const FILTER_MEMBER_LIMIT = 1_000;

/** Up to SEED_LIMIT accounts whose decisions on the site carry `clusterId`. */
export function clusterSeeds(
  decisions: ClusterDecisions,
  siteId: string,
  clusterId: string,
): Promise<string[]> {
  return decisions.seeds(siteId, clusterId, SEED_LIMIT);
}

/**
 * The accounts that are now in the cluster(s) of the accounts recorded under `clusterId`, from the
 * identity graph (an id of a cluster that merged into another leads to the merged cluster's
 * members, who may never have been scored under that id). Empty when the graph knows none.
 */
export async function currentClusterAccounts(
  decisions: ClusterDecisions,
  identity: IdentityService,
  siteId: string,
  clusterId: string,
  limit = FILTER_MEMBER_LIMIT,
): Promise<string[]> {
  const out = new Set<string>();
  for (const seed of await clusterSeeds(decisions, siteId, clusterId)) {
    if (out.has(seed)) continue;
    const view = await identity.clusterOf(siteId, [seed], limit);
    for (const account of view?.accounts ?? []) {
      if (out.size >= limit) return [...out];
      out.add(account);
    }
  }
  return [...out];
}
