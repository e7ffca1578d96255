import { type Static, Type } from '@sinclair/typebox';
import { ACTIONS, Action, Classification, Decision, EventType, RiskLevel, Signal } from '@warden/protocol';
import type { RetentionSettings } from '../../decisions/retention.ts';
import type { DecisionsTable } from '../../storage/scoring-schema.ts';

/** Schemas and views of the decision read API (SPEC §9). Management JSON is camelCase. */
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
  label: Type.Union([Type.Literal('fraud'), Type.Literal('legit'), Type.Null()]),
  labeledAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
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
export type DecisionDetail = Static<typeof DecisionDetail>;

export const DecisionPage = Type.Object({
  items: Type.Array(DecisionSummary),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

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

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(Number(ms)).toISOString();
}

export const SUMMARY_COLUMNS = [
  'id',
  'site_id',
  'event_type',
  'account_id',
  'email',
  'ip_address',
  'user_agent',
  'device_id',
  'payment_hash',
  'promo_code',
  'cluster_id',
  'risk_score',
  'risk_level',
  'classification',
  'action',
  'signals',
  'decision_ms',
  'ruleset_version',
  'label',
  'labeled_at',
  'created_at',
] as const satisfies ReadonlyArray<keyof DecisionsTable>;

export type SummaryRow = Pick<DecisionsTable, (typeof SUMMARY_COLUMNS)[number]>;

export function decisionSummary(row: SummaryRow): DecisionSummary {
  return {
    id: row.id,
    siteId: row.site_id,
    eventType: row.event_type,
    accountId: row.account_id,
    email: row.email,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    deviceId: row.device_id,
    paymentHash: row.payment_hash,
    promoCode: row.promo_code,
    clusterId: row.cluster_id ?? null,
    riskScore: Number(row.risk_score),
    riskLevel: row.risk_level as DecisionSummary['riskLevel'],
    classification: row.classification as DecisionSummary['classification'],
    action: row.action as DecisionSummary['action'],
    signals: JSON.parse(row.signals) as DecisionSummary['signals'],
    decisionMs: Number(row.decision_ms),
    rulesetVersion: row.ruleset_version,
    label: row.label as DecisionSummary['label'],
    labeledAt: iso(row.labeled_at),
    createdAt: iso(row.created_at) as string,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function decisionDetail(row: DecisionsTable, retention: RetentionSettings): DecisionDetail {
  const after = (days: number | null) => (days === null ? null : iso(Number(row.created_at) + days * DAY_MS));
  return {
    ...decisionSummary(row),
    orderAmount: row.order_amount === null ? null : Number(row.order_amount),
    browserDecisionId: row.browser_decision_id ?? null,
    evidence: JSON.parse(row.evidence) as Record<string, unknown>,
    features: JSON.parse(row.features) as Record<string, unknown>,
    response: JSON.parse(row.response) as DecisionDetail['response'],
    retention: { evidenceUntil: after(retention.evidenceDays), keptUntil: after(retention.decisionDays) },
  };
}
