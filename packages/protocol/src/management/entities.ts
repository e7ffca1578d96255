import { type Static, Type } from '@sinclair/typebox';

/**
 * Entity summaries (GET /api/entities/summary): what the decisions of one site say about one
 * account, IP, network, device, e-mail, e-mail domain, payment hash, promo code or cluster. The
 * entity is selected with the same filter as the decisions list, so the summary's `total` is the
 * number of decisions the pivot link lists.
 */
// The kinds are plain words (`@warden/protocol/vocabulary`), so the dashboard can take them too.
export { ENTITY_KINDS, type EntityKind } from '../vocabulary.ts';

const Counts = Type.Record(Type.String(), Type.Integer());

export const EntitySummary = Type.Object({
  siteId: Type.String(),
  kind: Type.String(),
  value: Type.String(),
  total: Type.Integer({ description: 'decisions listed by the decisions filter `kind=value`' }),
  firstSeenAt: Type.Union([Type.String(), Type.Null()]),
  lastSeenAt: Type.Union([Type.String(), Type.Null()]),
  byClassification: Counts,
  byAction: Counts,
  labels: Type.Object({ fraud: Type.Integer(), legit: Type.Integer(), none: Type.Integer() }),
  accounts: Type.Integer({ description: 'distinct accounts' }),
  ips: Type.Integer({ description: 'distinct IP addresses' }),
  devices: Type.Integer({ description: 'distinct non-empty device ids' }),
  clusters: Type.Array(Type.String(), { description: 'cluster ids recorded on the decisions, at most 20' }),
  network: Type.Union(
    [
      Type.Object({
        asn: Type.Union([Type.Integer(), Type.Null()]),
        org: Type.Union([Type.String(), Type.Null()]),
        country: Type.Union([Type.String(), Type.Null()]),
        hosting: Type.Boolean(),
      }),
      Type.Null(),
    ],
    { description: 'for ip and ipPrefix: the IP intelligence of the latest decision, when recorded' },
  ),
  userAgent: Type.Union([
    Type.Object({
      raw: Type.String(),
      browser: Type.String(),
      version: Type.Union([Type.String(), Type.Null()]),
      os: Type.String(),
      kind: Type.String(),
    }),
    Type.Null(),
  ]),
});
export type EntitySummary = Static<typeof EntitySummary>;

/** At most this many related clusters are answered with a cluster. */
export const RELATED_CLUSTERS_LIMIT = 20;

/** Any text: an id no decision carries (malformed or not) is simply not found (404). */
export const ClusterParams = Type.Object({ id: Type.String() });

export const ClusterMember = Type.Object({
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

export const ClusterLink = Type.Object({
  kind: Type.Union([Type.Literal('device'), Type.Literal('ip'), Type.Literal('payment')]),
  value: Type.String(),
  accounts: Type.Array(Type.String(), { description: 'The members it links (two or more).' }),
  crowded: Type.Boolean({ description: 'An IP used by more than 3 accounts: it linked only its first 3.' }),
});

export const RelatedCluster = Type.Object({
  clusterId: Type.String(),
  accounts: Type.Array(Type.String(), { description: 'Its accounts seen near this cluster.' }),
  shared: Type.Array(
    Type.Object({
      kind: Type.Union([Type.Literal('promo'), Type.Literal('network'), Type.Literal('emailDomain')]),
      value: Type.String({ description: 'the promo code, IPv4 /24 or e-mail domain' }),
    }),
  ),
});

export const Cluster = Type.Object({
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
    maxItems: RELATED_CLUSTERS_LIMIT,
    description:
      'Other clusters of the site linked only weakly: the same promo code, IPv4 /24 or e-mail domain ' +
      "(not a big free-mail provider) within an hour of one of this cluster's decisions of the last 30 days. " +
      'Most shared values first.',
  }),
});
/** A cluster as answered (GET /api/clusters/{id}). */
export type Cluster = Static<typeof Cluster>;
