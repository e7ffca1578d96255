import { ACTIONS, CLASSIFICATIONS } from '@warden/protocol';
import type { EntityKind, EntitySummary } from '@warden/protocol/management';
import type { DecisionLog } from '../decisions/decision-log.ts';
import type { DecisionFilters } from '../decisions/search.ts';
import { type ParsedUserAgent, parseUserAgent } from './user-agent.ts';

/**
 * Entity summaries (GET /api/entities/summary): what the decisions of one site say about one
 * account, IP, network, device, e-mail, e-mail domain, payment hash, promo code or cluster. The
 * entity is selected with the same filter as the decisions list, so the summary's `total` is the
 * number of decisions the pivot link lists. The answer's schema is the contract's
 * (`@warden/protocol/management`).
 */

function iso(ms: number | string | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();
}

function networkOf(features: string, kind: EntityKind): EntitySummary['network'] {
  if (kind !== 'ip' && kind !== 'ipPrefix') return null;
  try {
    const ip = (JSON.parse(features) as { ip?: Record<string, unknown> }).ip;
    if (!ip || typeof ip !== 'object') return null;
    return {
      asn: typeof ip.asn === 'number' ? ip.asn : null,
      org: typeof ip.org === 'string' ? ip.org : null,
      country: typeof ip.country === 'string' ? ip.country : null,
      hosting: ip.hosting === true,
    };
  } catch {
    return null;
  }
}

export async function entitySummary(
  ctx: { readonly services: { readonly decisions: Pick<DecisionLog, 'aggregate'> } },
  siteId: string,
  kind: EntityKind,
  value: string,
  /** For a cluster: its current members (identity graph), as the decision list resolves them. */
  clusterAccounts?: readonly string[],
): Promise<EntitySummary> {
  const filters: DecisionFilters = { siteId, [kind]: value, ...(clusterAccounts ? { clusterAccounts } : {}) };
  const { groups, clusters, latest, ...totals } = await ctx.services.decisions.aggregate(filters);
  const byClassification = Object.fromEntries(CLASSIFICATIONS.map((c) => [c, 0]));
  const byAction = Object.fromEntries(ACTIONS.map((a) => [a, 0]));
  const labels = { fraud: 0, legit: 0, none: 0 };
  for (const g of groups) {
    const n = Number(g.n);
    byClassification[g.classification] = (byClassification[g.classification] ?? 0) + n;
    byAction[g.action] = (byAction[g.action] ?? 0) + n;
    const label = g.label === 'fraud' || g.label === 'legit' ? g.label : 'none';
    labels[label] += n;
  }
  const ua: ParsedUserAgent | null = latest ? parseUserAgent(latest.user_agent) : null;
  return {
    siteId,
    kind,
    value,
    total: Number(totals.total),
    firstSeenAt: iso(totals.first),
    lastSeenAt: iso(totals.last),
    byClassification,
    byAction,
    labels,
    accounts: Number(totals.accounts),
    ips: Number(totals.ips),
    devices: Number(totals.devices),
    clusters,
    network: latest ? networkOf(latest.features, kind) : null,
    userAgent: latest && ua ? { raw: latest.user_agent, ...ua } : null,
  };
}
