import { type Static, Type } from '@sinclair/typebox';
import { Envelope } from '@warden/protocol';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { authenticate, principalOf, requirePlan, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';

/** At most this many accounts, and each of devices, IPs and payment hashes, are listed. */
const CLUSTER_LIST_LIMIT = 200;
/** Devices, IPs and payments are read from the members' decisions of this window. */
const CLUSTER_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
const SCAN_LIMIT = 20_000;

/** Any text: an id no decision carries (malformed or not) is simply not found (404). */
const ClusterParams = Type.Object({ id: Type.String() });

const Cluster = Type.Object({
  id: Type.String(),
  siteId: Type.String(),
  /** Accounts whose decisions were scored in this cluster, most recently seen first. */
  accounts: Type.Array(Type.String()),
  /** Device ids, IP addresses and payment hashes the accounts used (last 30 days), most recent first. */
  devices: Type.Array(Type.String()),
  ips: Type.Array(Type.String()),
  paymentHashes: Type.Array(Type.String()),
  decisions: Type.Integer({ description: 'Decisions recorded in this cluster.' }),
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

/**
 * GET /api/clusters/{id} (SPEC §9): the members of an identity cluster. Checks (SPEC §10): 401 →
 * 404 (no decision of the caller's workspaces carries the id) → 403 (scope) → 402 (plan).
 */
export async function clusterRoutes(app: App, ctx: AppContext): Promise<void> {
  const db = ctx.database.db;
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
      const accounts = await db
        .selectFrom('decisions')
        .select((eb) => [
          'account_id',
          eb.fn.max('created_at').as('last'),
          eb.fn.min('created_at').as('first'),
          eb.fn.countAll<number | string>().as('n'),
        ])
        .where('site_id', '=', siteId)
        .where('cluster_id', '=', id)
        .groupBy('account_id')
        .orderBy('last', 'desc')
        .limit(CLUSTER_LIST_LIMIT + 1)
        .execute();
      const members = accounts.slice(0, CLUSTER_LIST_LIMIT).map((a) => a.account_id);
      const since = ctx.now() - CLUSTER_WINDOW_MS;
      const uses = await db
        .selectFrom('decisions')
        .select(['device_id', 'ip_address', 'payment_hash'])
        .where('site_id', '=', siteId)
        .where('account_id', 'in', members)
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
      return ok({
        id,
        siteId,
        accounts: members,
        devices: cut(lists.devices),
        ips: cut(lists.ips),
        paymentHashes: cut(lists.paymentHashes),
        decisions: accounts.reduce((n, a) => n + Number(a.n), 0),
        firstSeenAt: new Date(Math.min(...accounts.map((a) => Number(a.first)))).toISOString(),
        lastSeenAt: new Date(Math.max(...accounts.map((a) => Number(a.last)))).toISOString(),
        truncated:
          accounts.length > CLUSTER_LIST_LIMIT ||
          Object.values(lists).some((l) => l.length > CLUSTER_LIST_LIMIT),
      });
    },
  );
}
