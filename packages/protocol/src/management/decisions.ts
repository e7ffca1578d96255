import { type Static, Type } from '@sinclair/typebox';
import { Action, Classification, Decision, EventType, RiskLevel, Signal } from '../scoring.ts';
import { ACTIONS, ENTITY_LABEL_KINDS } from '../vocabulary.ts';

/** Schemas of the decision read API (SPEC §9): queries, the decision views, stats. Management JSON is camelCase. */
const Time = Type.String({
  description: 'ISO 8601 date-time or Unix epoch milliseconds',
  maxLength: 40,
  pattern: '^(\\d{1,15}|\\d{4}-\\d\\d-\\d\\d(T[0-9:.]+(Z|[+-]\\d\\d:?\\d\\d)?)?)$',
});

const Score = Type.String({ pattern: '^(100|[1-9]?[0-9])$', description: 'integer 0–100' });

/** Search filters added to the original list filters (all optional, combined with AND). */
const SearchFilters = {
  ipPrefix: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 64,
      description: 'an address or its network: IPv4 /24 (`203.0.113.0/24`) or IPv6 /64 (`2001:db8:1:2::/64`)',
    }),
  ),
  email: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'exact, case-insensitive' })),
  emailDomain: Type.Optional(
    Type.String({ minLength: 1, maxLength: 253, pattern: '^[^@\\s]+$', description: 'the part after @' }),
  ),
  paymentHash: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  promoCode: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  clusterId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  signal: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'a signal that fired (`ip_datacenter`), or a custom rule as `custom:<name>`: its live and its shadow matches',
    }),
  ),
  match: Type.Optional(
    Type.Union([Type.Literal('live'), Type.Literal('shadow')], {
      description: 'with `signal=custom:<name>`: only its live matches, or only its shadow matches',
    }),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 320,
      description:
        'free text: decisions whose id, account, e-mail (any case), device, IP address, payment hash, ' +
        'promo code or cluster id is or starts with it',
    }),
  ),
  label: Type.Optional(
    Type.Union([Type.Literal('fraud'), Type.Literal('legit'), Type.Literal('none')], {
      description: '`none`: not labelled',
    }),
  ),
  minScore: Type.Optional(Score),
  maxScore: Type.Optional(Score),
  country: Type.Optional(
    Type.String({
      pattern: '^[A-Z]{2}$',
      description: "the IP's country (ISO code) recorded with the decision",
    }),
  ),
  asn: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{0,9}$',
      description: "the IP's autonomous system number recorded with the decision",
    }),
  ),
};

const ONE_ACTION = `(${ACTIONS.join('|')})`;

/** Every filter of the decision list, shared by the list and its export. */
const DecisionFilters = {
  eventType: Type.Optional(EventType),
  classification: Type.Optional(Classification),
  action: Type.Optional(
    Type.String({
      pattern: `^${ONE_ACTION}(,${ONE_ACTION}){0,${ACTIONS.length - 1}}$`,
      description: 'an action, or several separated by commas (`review,challenge`: the review queue)',
      maxLength: 40,
    }),
  ),
  accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  ip: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  deviceId: Type.Optional(Type.String({ maxLength: 128 })),
  from: Type.Optional(Time),
  to: Type.Optional(Time),
  ...SearchFilters,
};

export const DecisionListQuery = Type.Object(
  {
    siteId: Type.String({ minLength: 1, maxLength: 64 }),
    limit: Type.Optional(
      Type.String({ pattern: '^([1-9]|[1-9][0-9]|100)$', description: '1–100, default 50' }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'nextCursor of the previous page' })),
    ...DecisionFilters,
  },
  { additionalProperties: false },
);
export type DecisionListQuery = Static<typeof DecisionListQuery>;

/** The filters of a decision export: the list's filters, without paging, and a format. */
export const DecisionExportQuery = Type.Object(
  {
    siteId: Type.String({ minLength: 1, maxLength: 64 }),
    format: Type.Union([Type.Literal('csv'), Type.Literal('json')], {
      description: 'csv (text/csv) or json (JSON lines, application/x-ndjson)',
    }),
    ...DecisionFilters,
  },
  { additionalProperties: false },
);
export type DecisionExportQuery = Static<typeof DecisionExportQuery>;

export const StatsQuery = Type.Object(
  {
    siteId: Type.String({ minLength: 1, maxLength: 64 }),
    from: Type.Optional(Time),
    to: Type.Optional(Time),
  },
  { additionalProperties: false },
);

export const DecisionIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const LabelBody = Type.Object(
  { label: Type.Union([Type.Literal('fraud'), Type.Literal('legit')]) },
  { additionalProperties: false },
);

export const DecisionSummary = Type.Object({
  id: Type.String(),
  siteId: Type.String(),
  eventType: Type.String(),
  accountId: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  ipAddress: Type.String(),
  userAgent: Type.String(),
  deviceId: Type.String(),
  paymentHash: Type.Union([Type.String(), Type.Null()]),
  promoCode: Type.Union([Type.String(), Type.Null()]),
  /** The identity cluster the decision was scored in (null without the plan). */
  clusterId: Type.Union([Type.String(), Type.Null()]),
  riskScore: Type.Number(),
  riskLevel: RiskLevel,
  classification: Classification,
  action: Action,
  signals: Type.Array(Signal),
  decisionMs: Type.Number(),
  rulesetVersion: Type.String(),
  /** The decision's own label (POST /api/decisions/{id}/label). */
  label: Type.Union([Type.Literal('fraud'), Type.Literal('legit'), Type.Null()]),
  labeledAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  /**
   * The newest entity label (POST /api/entity-labels) of the decision's account, device, e-mail,
   * payment hash or identity cluster (recorded, or one its account is a member of now), whatever
   * its own label; null when none applies.
   */
  entityLabel: Type.Union([
    Type.Object({
      kind: Type.Union(ENTITY_LABEL_KINDS.map((k) => Type.Literal(k))),
      value: Type.String(),
      label: Type.Union([Type.Literal('fraud'), Type.Literal('legit')]),
      labeledAt: Type.String(),
    }),
    Type.Null(),
  ]),
  /**
   * The label backtests and rule statistics count: the decision's own, else its entity label's;
   * null when neither.
   */
  effectiveLabel: Type.Union([Type.Literal('fraud'), Type.Literal('legit'), Type.Null()]),
});
export type DecisionSummary = Static<typeof DecisionSummary>;

const OpenObject = Type.Object({}, { additionalProperties: true });

export const DecisionDetail = Type.Composite([
  DecisionSummary,
  Type.Object({
    orderAmount: Type.Union([Type.Number(), Type.Null()]),
    /**
     * On a backend `/verify` decision: the browser decision (`/collect`) of the same page session it
     * verified and carries (one protected submit; statistics count it once). Null otherwise.
     */
    browserDecisionId: Type.Union([Type.String(), Type.Null()]),
    evidence: OpenObject,
    features: OpenObject,
    /** The Decision exactly as it was answered. */
    response: Decision,
    /**
     * How long this decision is kept (WARDEN_RETENTION_DAYS, WARDEN_EVIDENCE_RETENTION_DAYS): when
     * its evidence is (or was) dropped and when it is deleted; null: kept for ever.
     */
    retention: Type.Object({
      evidenceUntil: Type.Union([Type.String(), Type.Null()]),
      keptUntil: Type.Union([Type.String(), Type.Null()]),
    }),
  }),
]);
/** The open `evidence` and `features` objects typed as records (their schema says only "an object"). */
export type DecisionDetail = Omit<Static<typeof DecisionDetail>, 'evidence' | 'features'> & {
  evidence: Record<string, unknown>;
  features: Record<string, unknown>;
};

export const DecisionPage = Type.Object({
  items: Type.Array(DecisionSummary),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type DecisionPage = Static<typeof DecisionPage>;

const Counts = Type.Record(Type.String(), Type.Integer());
export const Stats = Type.Object({
  siteId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  total: Type.Integer(),
  byClassification: Counts,
  byAction: Counts,
  byEventType: Counts,
  hourly: Type.Array(
    Type.Object({
      hour: Type.String(),
      total: Type.Integer(),
      human: Type.Integer(),
      suspicious: Type.Integer(),
      bot: Type.Integer(),
      allow: Type.Integer(),
      review: Type.Integer(),
      challenge: Type.Integer(),
      block: Type.Integer(),
    }),
  ),
});
export type Stats = Static<typeof Stats>;

/** The dimensions of the overview's "top" lists (issue 16), each a key of the answer. */
export const TOP_DIMENSIONS = ['signals', 'rules', 'ips', 'asns', 'countries', 'emailDomains'] as const;
export type TopDimension = (typeof TOP_DIMENSIONS)[number];

/** GET /api/stats/top */
export const TopQuery = Type.Object(
  {
    ...StatsQuery.properties,
    limit: Type.Optional(Type.String({ pattern: '^([1-9]|1[0-9]|20)$', description: '1–20, default 10' })),
  },
  { additionalProperties: false },
);
export const TopEntrySchema = Type.Object({
  key: Type.String({ description: 'the value, as the decisions list filters by it' }),
  label: Type.Union([Type.String(), Type.Null()], { description: "an ASN's organisation" }),
  count: Type.Integer(),
  previous: Type.Integer({ description: 'count in the previous period of the same length' }),
});
export const TopValues = Type.Object({
  siteId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  previousFrom: Type.String(),
  ...Object.fromEntries(TOP_DIMENSIONS.map((d) => [d, Type.Array(TopEntrySchema)])),
});
export interface TopEntry {
  /** The value as the decisions list filters by it (`custom:` stripped from rules). */
  key: string;
  /** A readable name where the key is a number (an ASN's organisation). */
  label: string | null;
  count: number;
  /** Decisions with this value in the previous period. */
  previous: number;
}
/** GET /api/stats/top */
export type TopValues = { siteId: string; from: string; to: string; previousFrom: string } & Record<
  TopDimension,
  TopEntry[]
>;
