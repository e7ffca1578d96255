import { Envelope } from '@warden/protocol';
import { Cluster, ClusterParams } from '@warden/protocol/management';
import type { DecisionLog } from '../../decisions/decision-log.ts';
import { clusterDetail, type LinkKind } from '../../entities/cluster-links.ts';
import { clusterSeeds } from '../../entities/cluster-members.ts';
import { entityLabelOf, entityLabelsOf } from '../../entities/entity-labels.ts';
import { relatedClusters } from '../../entities/related-clusters.ts';
import { ApiError } from '../../errors.ts';
import type { IdentitySummary } from '../../scoring/engine-types.ts';
import type { IdentityService } from '../../scoring/identity.ts';
import { type AuthDeps, authenticate, principalOf, requirePlan, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';

/** At most this many accounts, and each of devices, IPs and payment hashes, are listed. */
const CLUSTER_LIST_LIMIT = 200;
/** Devices, IPs and payments are read from the members' decisions of this window. */
const CLUSTER_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

interface Membership {
  id: string;
  accounts: string[];
  summary: IdentitySummary;
}

/** What the cluster route uses: the access checks, the identity graph and what the decisions say of clusters. */
export interface ClustersDeps extends AuthDeps {
  readonly services: {
    readonly identity: IdentityService;
    readonly decisions: Pick<DecisionLog, 'clusters'>;
  };
}

/**
 * GET /api/clusters/{id} (SPEC §9): the members of an identity cluster. Checks (SPEC §10): 401 →
 * 404 (no decision of the caller's workspaces carries the id) → 403 (scope) → 402 (plan).
 *
 * The accounts the id was recorded on lead to the cluster they are in now (the identity graph):
 * an id of a cluster that merged into another answers the merged cluster, under its current id.
 * When the graph no longer remembers any of those accounts, the answer is what the recorded
 * decisions say: the accounts scored under the id and the latest of their identity counts.
 */
export async function clusterRoutes(app: App, ctx: ClustersDeps): Promise<void> {
  const identity = ctx.services.identity;
  const decisions = ctx.services.decisions.clusters;

  /** The id's cluster from the recorded decisions alone (accounts scored under it). */
  async function recorded(siteId: string, id: string): Promise<Membership> {
    const accounts = await decisions.recordedAccounts(siteId, id, CLUSTER_LIST_LIMIT + 1);
    const latest = await decisions.latestResponse(siteId, id);
    const summary =
      latest === undefined ? undefined : (JSON.parse(latest) as { identity?: IdentitySummary }).identity;
    return {
      id,
      accounts,
      summary: summary ?? {
        cluster_id: id,
        linked_accounts: accounts.length - 1,
        shared_devices: 0,
        shared_ips: 0,
        shared_payments: 0,
      },
    };
  }

  app.get(
    '/api/clusters/:id',
    {
      onRequest: authenticate(ctx),
      schema: {
        tags: ['decisions'],
        summary: 'The accounts, devices, IPs and payment hashes of an identity cluster (Pro, Enterprise)',
        security: [{ bearer: [] }],
        params: ClusterParams,
        response: { 200: Envelope(Cluster) },
      },
    },
    async (request) => {
      const id = request.params.id;
      const siteId = await decisions.siteOf(id);
      if (siteId === undefined) throw new ApiError('not_found', 'Cluster not found.');
      const access = await requireSite(ctx, principalOf(request), siteId, 'read');
      requirePlan(access, 'identity');
      const seeds = await clusterSeeds(decisions, siteId, id);
      const membership: Membership =
        (await identity.clusterOf(siteId, seeds, CLUSTER_LIST_LIMIT + 1)) ?? (await recorded(siteId, id));
      const listed = membership.accounts.slice(0, CLUSTER_LIST_LIMIT);
      const detail = await clusterDetail(decisions, siteId, listed, ctx.now() - CLUSTER_WINDOW_MS);
      const cut = (l: string[]) => l.slice(0, CLUSTER_LIST_LIMIT);
      const seen = detail.members.filter((m) => m.decisions > 0);
      const iso = (ms: number) => new Date(ms).toISOString();
      const accountLabels = new Map(
        (await entityLabelsOf(ctx.database.db, siteId, { kind: 'account' })).map((l) => [l.value, l.label]),
      );
      const clusterLabel = (await entityLabelOf(ctx.database.db, siteId, 'cluster', membership.id))?.label;
      const count = (kind: LinkKind) => detail.links.filter((l) => l.kind === kind).length;
      return ok({
        id: membership.id,
        requestedId: id,
        siteId,
        accounts: detail.members.map((m) => m.accountId),
        accountCount: Math.max(membership.summary.linked_accounts + 1, membership.accounts.length),
        sharedDevices: count('device'),
        sharedIps: count('ip'),
        sharedPayments: count('payment'),
        devices: cut(detail.devices),
        ips: cut(detail.ips),
        paymentHashes: cut(detail.paymentHashes),
        decisions: detail.members.reduce((n, m) => n + m.decisions, 0),
        firstSeenAt: iso(seen.length ? Math.min(...seen.map((m) => m.firstSeenAt)) : ctx.now()),
        lastSeenAt: iso(seen.length ? Math.max(...seen.map((m) => m.lastSeenAt)) : ctx.now()),
        truncated:
          detail.truncated ||
          membership.accounts.length > CLUSTER_LIST_LIMIT ||
          [detail.devices, detail.ips, detail.paymentHashes].some((l) => l.length > CLUSTER_LIST_LIMIT),
        members: detail.members.map((m) => ({
          accountId: m.accountId,
          decisions: m.decisions,
          firstSeenAt: m.decisions ? iso(m.firstSeenAt) : null,
          lastSeenAt: m.decisions ? iso(m.lastSeenAt) : null,
          latest: m.latest ? { ...m.latest, createdAt: iso(m.latest.createdAt) } : null,
          label: accountLabels.get(m.accountId) ?? clusterLabel ?? (m.label as 'fraud' | 'legit' | null),
        })),
        links: detail.links,
        related: await relatedClusters(
          decisions,
          siteId,
          listed,
          [membership.id, id],
          ctx.now() - CLUSTER_WINDOW_MS,
        ),
      });
    },
  );
}
