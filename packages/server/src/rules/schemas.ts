import { Type } from '@sinclair/typebox';
import { ACTIONS, EVENT_TYPES } from '@warden/protocol';

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
