import { type Static, Type } from '@sinclair/typebox';
import { ACTIONS, EVENT_TYPES } from '../vocabulary.ts';

/**
 * Custom rules, lists, backtests and the signal catalogue of the management API (SPEC §9, docs/rules.md):
 * the request schemas the server validates with, and the answers the dashboard reads.
 */

export const LIST_KINDS = ['ip', 'email', 'email_domain', 'device_id', 'account_id', 'payment_hash'] as const;

export const MAX_RULES_PER_SITE = 200;
export const MAX_LIST_ENTRIES = 10_000;

const EventTypeSchema = Type.Union(EVENT_TYPES.map((t) => Type.Literal(t)));
const ActionSchema = Type.Union(ACTIONS.map((a) => Type.Literal(a)));

const ruleFields = {
  name: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^[A-Za-z0-9_.:-]+$',
    description: 'Unique per site; becomes the signal name `custom:<name>`.',
  }),
  description: Type.String({ maxLength: 500 }),
  enabled: Type.Boolean(),
  mode: Type.Union([Type.Literal('live'), Type.Literal('shadow')], {
    description: 'Shadow rules are evaluated and recorded but change nothing.',
  }),
  eventTypes: Type.Array(EventTypeSchema, {
    maxItems: 5,
    uniqueItems: true,
    description: 'Empty: every event type.',
  }),
  expression: Type.String({
    minLength: 1,
    maxLength: 4096,
    description: 'CEL expression returning bool (docs/rules.md).',
  }),
  score: Type.Union([Type.Integer({ minimum: -100, maximum: 100 }), Type.Null()]),
  action: Type.Union([ActionSchema, Type.Null()]),
  priority: Type.Integer({
    minimum: -1000,
    maximum: 1000,
    description: 'Higher runs first; the first forced action wins.',
  }),
};

export const RuleCreateBody = Type.Object(
  {
    name: ruleFields.name,
    description: Type.Optional(ruleFields.description),
    enabled: Type.Optional(ruleFields.enabled),
    mode: Type.Optional(ruleFields.mode),
    eventTypes: Type.Optional(ruleFields.eventTypes),
    expression: ruleFields.expression,
    score: Type.Optional(ruleFields.score),
    action: Type.Optional(ruleFields.action),
    priority: Type.Optional(ruleFields.priority),
  },
  { additionalProperties: false },
);

export const RulePatchBody = Type.Partial(Type.Object(ruleFields), { additionalProperties: false });

export const RuleSchema = Type.Object({
  id: Type.String(),
  siteId: Type.String(),
  ...ruleFields,
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const ListCreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$' }),
    kind: Type.Union(LIST_KINDS.map((k) => Type.Literal(k))),
    type: Type.Union([Type.Literal('allow'), Type.Literal('block')]),
    entries: Type.Optional(Type.Array(Type.String({ maxLength: 320 }), { maxItems: MAX_LIST_ENTRIES })),
  },
  { additionalProperties: false },
);

export const ListPatchBody = Type.Object(
  {
    entries: Type.Optional(
      Type.Array(Type.String({ maxLength: 320 }), {
        maxItems: MAX_LIST_ENTRIES,
        description: 'The complete list of entries; replaces the old one.',
      }),
    ),
    add: Type.Optional(Type.Array(Type.String({ maxLength: 320 }), { maxItems: MAX_LIST_ENTRIES })),
    remove: Type.Optional(Type.Array(Type.String({ maxLength: 320 }), { maxItems: MAX_LIST_ENTRIES })),
  },
  { additionalProperties: false },
);

export const SiteQuery = Type.Object({ siteId: Type.String({ minLength: 1, maxLength: 100 }) });
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const BacktestBody = Type.Object(
  {
    rules: Type.Optional(
      Type.Array(RuleCreateBody, {
        maxItems: 50,
        description: 'Draft rules; a draft replaces the saved rule of the same name.',
      }),
    ),
    includeExisting: Type.Optional(Type.Boolean({ description: 'Also run the saved rules (default true).' })),
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
    maxEvents: Type.Optional(Type.Integer({ minimum: 1, maximum: 500_000 })),
    examples: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    matchesOffset: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 500_000,
        description: 'Skip this many matched decisions in the `matched` listing (paging).',
      }),
    ),
    matchesLimit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 200, description: 'Matched decisions listed (default 25).' }),
    ),
  },
  { additionalProperties: false },
);

/** Query of a rule's statistics: the period of labelled decisions (default: since the rule was created). */
export const RuleStatsQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

/** Query of the rules' hit counts: a site, a period (default the last 7 days) and its buckets. */
export const RuleHitsQuery = Type.Object(
  {
    siteId: Type.String({ minLength: 1, maxLength: 100 }),
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
    buckets: Type.Optional(
      Type.String({
        pattern: '^([1-9]|[1-4][0-9]|50)$',
        description: 'Sparkline points, 1–50 (default 14).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Evaluate a draft rule against one stored decision. */
export const RuleTestBody = Type.Object(
  {
    decisionId: Type.String({ minLength: 1, maxLength: 64 }),
    rule: RuleCreateBody,
  },
  { additionalProperties: false },
);
export type ListKind = (typeof LIST_KINDS)[number];

/** A custom rule as answered (GET/POST/PATCH /api/rules…). */
export type Rule = Static<typeof RuleSchema>;
export type RuleDraft = Omit<Rule, 'id' | 'siteId' | 'createdAt' | 'updatedAt'>;

/** GET /api/rules/{id}/stats: the rule against the analysts' labels over a period. */
export interface RuleStats extends LabelQuality {
  matchesLast30Days: number;
  timeoutsLast30Days: number;
  from: string;
  to: string;
}

/** A list as answered (GET/POST/PATCH /api/lists…). */
export interface List {
  id: string;
  siteId: string;
  name: string;
  kind: ListKind;
  type: 'allow' | 'block';
  size: number;
  entries: string[];
  createdAt: string;
  updatedAt: string;
}

/** How often one custom rule matched in a period, live and in shadow, and per bucket. */
export interface RuleHits {
  live: number;
  shadow: number;
  /** Per bucket, oldest first. */
  series: Array<{ live: number; shadow: number }>;
}

/** GET /api/rules/hits */
export interface RuleHitsAnswer {
  from: string;
  to: string;
  buckets: number;
  rules: Record<string, RuleHits>;
}

interface ScoreView {
  score: number;
  level: string;
  classification: string;
  action: string;
}

/** POST /api/rules/test: a draft rule evaluated against one stored decision. */
export interface RuleTestResult {
  decisionId: string;
  rule: string;
  mode: 'live' | 'shadow';
  applies: boolean;
  matched: boolean;
  error: string | null;
  before: ScoreView;
  after: ScoreView;
  signals: Array<{ rule: string; score: number; description: string }>;
}

type Counts = Record<string, number>;

/** The counts of a backtest (POST /api/rules/backtest). */
export interface BacktestCounts {
  evaluated: number;
  from: string;
  to: string;
  truncated: boolean;
  /** Live custom rules that matched, by name (shadow rules of the draft count too). */
  matches: Counts;
  before: { actions: Counts; levels: Counts; classifications: Counts };
  after: { actions: Counts; levels: Counts; classifications: Counts };
  changed: number;
  /** "before→after" action transitions with their counts. */
  transitions: Counts;
  examples: Array<{
    decisionId: string;
    eventType: string;
    accountId: string;
    createdAt: string;
    before: { score: number; level: string; action: string };
    after: { score: number; level: string; action: string };
    matchedRules: string[];
  }>;
  durationMs: number;
}

/** A rule's precision and recall against the labels (`fraud` is the positive class). */
export interface LabelQuality {
  labeled: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
  precision: number | null;
  recall: number | null;
}

export interface MatchedDecision {
  decisionId: string;
  eventType: string;
  accountId: string;
  createdAt: string;
  label: string | null;
  before: { score: number; level: string; action: string };
  after: { score: number; level: string; action: string };
  /** Live rules that matched. */
  matchedRules: string[];
  /** Shadow rules that matched (recorded, changing nothing). */
  shadowRules: string[];
}

export interface MatchedPage {
  /** Decisions matched by at least one of `rules` (the drafts, or every rule without drafts). */
  rules: string[];
  total: number;
  offset: number;
  limit: number;
  nextOffset: number | null;
  items: MatchedDecision[];
}

/** What a backtest reports beyond its counts: the matched decisions (one page) and each rule's quality. */
export interface BacktestReport {
  matched: MatchedPage;
  /** Per rule: `fraud` is the positive class; a decision counts when it is labelled. */
  quality: Record<string, LabelQuality>;
}

/** POST /api/rules/backtest */
export type BacktestResult = BacktestCounts & BacktestReport;

/** One built-in signal of GET /api/signals (docs/signals.md). */
export interface CatalogueSignal {
  name: string;
  family: string;
  /** The default score (some signals scale theirs; docs/signals.md). */
  score: number;
  description: string;
  /** Hard automation evidence: classification `bot` whatever the total. */
  hard: boolean;
}
