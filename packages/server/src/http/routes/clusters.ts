import { type Static, Type } from '@sinclair/typebox';
import { Envelope } from '@warden/protocol';
import type { AppContext } from '../../context.ts';
import { clusterDetail, type LinkKind } from '../../entities/cluster-links.ts';
import { clusterSeeds } from '../../entities/cluster-members.ts';
import { entityLabelOf, entityLabelsOf } from '../../entities/entity-labels.ts';
import { RELATED_LIMIT, relatedClusters } from '../../entities/related-clusters.ts';
import { ApiError } from '../../errors.ts';
import type { IdentitySummary } from '../../scoring/engine-types.ts';
import { authenticate, principalOf, requirePlan, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';

/** At most this many accounts, and each of devices, IPs and payment hashes, are listed. */
const CLUSTER_LIST_LIMIT = 200;
/** Devices, IPs and payments are read from the members' decisions of this window. */
const CLUSTER_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

/** Any text: an id no decision carries (malformed or not) is simply not found (404). */
const ClusterParams = Type.Object({ id: Type.String() });

const ClusterMember = Type.Object({
  accountId: Type.String(),
  decisions: Type.Integer({ description: 'Decisions recorded for the account.' }),
  firstSeenAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastSeenAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  latest: Type.Union([
    Type.Object({
      decisionId: Type.String(),
      riskScore: Type.Integer(),
      action: Type.String(),
      classification: Type.String(),
      createdAt: Type.String({ format: 'date-time' }),
    }),
    Type.Null(),
  ]),
  label: Type.Union([Type.Literal('fraud'), Type.Literal('legit'), Type.Null()], {
    description:
      "The account's label as a whole (an entity label), else the cluster's, else that of its most recently labelled decision.",
  }),
});

const ClusterLink = Type.Object({
  kind: Type.Union([Type.Literal('device'), Type.Literal('ip'), Type.Literal('payment')]),
  value: Type.String(),
  accounts: Type.Array(Type.String(), { description: 'The members it links (two or more).' }),
  crowded: Type.Boolean({ description: 'An IP used by more than 3 accounts: it linked only its first 3.' }),
});

const RelatedCluster = Type.Object({
  clusterId: Type.String(),
  accounts: Type.Array(Type.String(), { description: 'Its accounts seen near this cluster.' }),
  shared: Type.Array(
    Type.Object({
      kind: Type.Union([Type.Literal('promo'), Type.Literal('network'), Type.Literal('emailDomain')]),
      value: Type.String({ description: 'the promo code, IPv4 /24 or e-mail domain' }),
    }),
  ),
});

const Cluster = Type.Object({
  /** The cluster's current id: differs from `requestedId` when that cluster merged into this one. */
  id: Type.String(),
  requestedId: Type.String({
    description: 'The id asked for (an older id resolves to the current cluster).',
  }),
  siteId: Type.String(),
  /** The cluster's accounts, most recently seen first. */
  accounts: Type.Array(Type.String()),
  accountCount: Type.Integer({
    description: 'Accounts in the cluster (linked_accounts + 1 of a decision scored now).',
  }),
  sharedDevices: Type.Integer(),
  sharedIps: Type.Integer(),
  sharedPayments: Type.Integer(),
  /** Device ids, IP addresses and payment hashes the accounts used (last 30 days), most recent first. */
  devices: Type.Array(Type.String()),
  ips: Type.Array(Type.String()),
  paymentHashes: Type.Array(Type.String()),
  decisions: Type.Integer({ description: 'Decisions recorded for the listed accounts.' }),
  firstSeenAt: Type.String({ format: 'date-time' }),
  lastSeenAt: Type.String({ format: 'date-time' }),
  truncated: Type.Boolean({ description: 'A list hit the limit of 200 (or the scan its limit).' }),
  members: Type.Array(ClusterMember, {
    description: 'The accounts, as in `accounts`, with their latest decision.',
  }),
  links: Type.Array(ClusterLink, {
    description:
      'Devices, IP addresses and payment hashes that link two or more members; an IP only under the ' +
      'fan-out rule (its first 3 accounts). `sharedDevices`, `sharedIps` and `sharedPayments` count them.',
  }),
  related: Type.Array(RelatedCluster, {
    maxItems: RELATED_LIMIT,
    description:
      'Other clusters of the site linked only weakly: the same promo code, IPv4 /24 or e-mail domain ' +
      "(not a big free-mail provider) within an hour of one of this cluster's decisions of the last 30 days. " +
      'Most shared values first.',
  }),
});
/** A cluster as answered (the dashboard imports this type). */
export type Cluster = Static<typeof Cluster>;

interface Membership {
  id: string;
  accounts: string[];
  summary: IdentitySummary;
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
export async function clusterRoutes(app: App, ctx: AppContext): Promise<void> {
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
