import { type Static, Type } from '@sinclair/typebox';
import { Envelope } from '@warden/protocol';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import type { IdentitySummary } from '../../scoring/engine-types.ts';
import { authenticate, principalOf, requirePlan, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';

/** At most this many accounts, and each of devices, IPs and payment hashes, are listed. */
const CLUSTER_LIST_LIMIT = 200;
/** Devices, IPs and payments are read from the members' decisions of this window. */
const CLUSTER_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
const SCAN_LIMIT = 20_000;
/** Accounts the requested id was recorded on, tried in turn to find the cluster in the graph. */
const SEED_LIMIT = 20;

/** Any text: an id no decision carries (malformed or not) is simply not found (404). */
const ClusterParams = Type.Object({ id: Type.String() });

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
  truncated: Type.Boolean({ description: 'A list hit the limit of 200.' }),
});
/** A cluster as answered (the dashboard imports this type). */
export type Cluster = Static<typeof Cluster>;

/** Distinct non-empty values in order of first appearance (rows come newest first). */
function distinct(values: Iterable<string | null>): string[] {
  const out = new Set<string>();
  for (const v of values) if (v) out.add(v);
  return [...out];
}

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
  const db = ctx.database.db;

  /** The id's cluster from the recorded decisions alone (accounts scored under it). */
  async function recorded(siteId: string, id: string): Promise<Membership> {
    const rows = await db
      .selectFrom('decisions')
      .select((eb) => ['account_id', eb.fn.max('created_at').as('last')])
      .where('site_id', '=', siteId)
      .where('cluster_id', '=', id)
      .groupBy('account_id')
      .orderBy('last', 'desc')
      .limit(CLUSTER_LIST_LIMIT + 1)
      .execute();
    const latest = await db
      .selectFrom('decisions')
      .select('response')
      .where('site_id', '=', siteId)
      .where('cluster_id', '=', id)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const summary = latest
      ? (JSON.parse(latest.response) as { identity?: IdentitySummary }).identity
      : undefined;
    return {
      id,
      accounts: rows.map((r) => r.account_id),
      summary: summary ?? {
        cluster_id: id,
        linked_accounts: rows.length - 1,
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
      const found = await db
        .selectFrom('decisions')
        .select('site_id')
        .where('cluster_id', '=', id)
        .limit(1)
        .executeTakeFirst();
      if (!found) throw new ApiError('not_found', 'Cluster not found.');
      const access = await requireSite(ctx, principalOf(request), found.site_id, 'read');
      requirePlan(access, 'identity');
      const siteId = found.site_id;
      const seeds = await db
        .selectFrom('decisions')
        .select('account_id')
        .distinct()
        .where('site_id', '=', siteId)
        .where('cluster_id', '=', id)
        .limit(SEED_LIMIT)
        .execute();
      const membership: Membership =
        (await identity.clusterOf(
          siteId,
          seeds.map((s) => s.account_id),
          CLUSTER_LIST_LIMIT + 1,
        )) ?? (await recorded(siteId, id));
      const listed = membership.accounts.slice(0, CLUSTER_LIST_LIMIT);
      const accounts = listed.length
        ? await db
            .selectFrom('decisions')
            .select((eb) => [
              'account_id',
              eb.fn.max('created_at').as('last'),
              eb.fn.min('created_at').as('first'),
              eb.fn.countAll<number | string>().as('n'),
            ])
            .where('site_id', '=', siteId)
            .where('account_id', 'in', listed)
            .groupBy('account_id')
            .orderBy('last', 'desc')
            .execute()
        : [];
      // Most recently seen first; a member without a recorded decision (its decision failed to
      // record) goes last.
      const seen = new Set(accounts.map((a) => a.account_id));
      const members = [...accounts.map((a) => a.account_id), ...listed.filter((a) => !seen.has(a))];
      const since = ctx.now() - CLUSTER_WINDOW_MS;
      const uses = await db
        .selectFrom('decisions')
        .select(['device_id', 'ip_address', 'payment_hash'])
        .where('site_id', '=', siteId)
        .where('account_id', 'in', members.length ? members : [''])
        .where('created_at', '>=', since)
        .orderBy('created_at', 'desc')
        .limit(SCAN_LIMIT)
        .execute();
      const lists = {
        devices: distinct(uses.map((u) => u.device_id)),
        ips: distinct(uses.map((u) => u.ip_address)),
        paymentHashes: distinct(uses.map((u) => u.payment_hash)),
      };
      const cut = (l: string[]) => l.slice(0, CLUSTER_LIST_LIMIT);
      const times = accounts.length ? accounts : [{ first: ctx.now(), last: ctx.now() }];
      const s = membership.summary;
      return ok({
        id: membership.id,
        requestedId: id,
        siteId,
        accounts: members,
        accountCount: Math.max(s.linked_accounts + 1, membership.accounts.length),
        sharedDevices: s.shared_devices,
        sharedIps: s.shared_ips,
        sharedPayments: s.shared_payments,
        devices: cut(lists.devices),
        ips: cut(lists.ips),
        paymentHashes: cut(lists.paymentHashes),
        decisions: accounts.reduce((n, a) => n + Number(a.n), 0),
        firstSeenAt: new Date(Math.min(...times.map((a) => Number(a.first)))).toISOString(),
        lastSeenAt: new Date(Math.max(...times.map((a) => Number(a.last)))).toISOString(),
        truncated:
          membership.accounts.length > CLUSTER_LIST_LIMIT ||
          Object.values(lists).some((l) => l.length > CLUSTER_LIST_LIMIT),
      });
    },
  );
}
