import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { BehaviorEvidence, EnvironmentEvidence, FingerprintEvidence } from './evidence.ts';
import { ACTIONS, CLASSIFICATIONS, EVENT_TYPES, RISK_LEVELS } from './vocabulary.ts';

/**
 * Schemas of the scoring API (interface §2.2–2.5, SPEC §2–§5). Shared by the server (validation
 * and serialisation), the SDKs and the OpenAPI document.
 */

export const EventType = Type.Union(EVENT_TYPES.map((t) => Type.Literal(t)));
export const Classification = Type.Union(CLASSIFICATIONS.map((t) => Type.Literal(t)));
export const RiskLevel = Type.Union(RISK_LEVELS.map((t) => Type.Literal(t)));
export const Action = Type.Union(ACTIONS.map((t) => Type.Literal(t)));
export type EventType = Static<typeof EventType>;
export type Classification = Static<typeof Classification>;
export type RiskLevel = Static<typeof RiskLevel>;
export type Action = Static<typeof Action>;

/** 1–128 characters of letters, digits, `_`, `.`, `:`, `-`. */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9_.:-]{1,128}$';
export const IdempotencyKey = Type.String({ minLength: 1, maxLength: 128, pattern: IDEMPOTENCY_KEY_PATTERN });

export const ScoringContext = Type.Object(
  {
    event_type: EventType,
    account_id: Type.String({ minLength: 1, maxLength: 256, pattern: '\\S' }),
    email: Type.Optional(Type.String({ maxLength: 320 })),
    order_amount: Type.Optional(Type.Number({ minimum: 0 })),
    payment_hash: Type.Optional(Type.String({ maxLength: 256 })),
    promo_code: Type.Optional(Type.String({ maxLength: 256 })),
    ip_address: Type.Optional(Type.String({ maxLength: 64 })),
    user_agent: Type.Optional(Type.String({ maxLength: 2048 })),
    request_url: Type.Optional(Type.String({ maxLength: 4096 })),
    login_succeeded: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ScoringContext = Static<typeof ScoringContext>;

export const VerificationRequest = Type.Object(
  {
    context: ScoringContext,
    // Any token is evidence, never a 400 (SPEC §4): the bound is the body's own 256 KiB; the
    // server reads one over 1,024 characters as garbage (token_invalid) without checking it.
    token: Type.Optional(Type.String({ maxLength: 256 * 1024 })),
    // Evidence schemas are the evidence work's (evidence.ts); everything inside is optional.
    fingerprint: Type.Optional(FingerprintEvidence),
    /** At most 2,048 array elements in total, at any depth (checked by the server after the schema). */
    behavior: Type.Optional(BehaviorEvidence),
    environment: Type.Optional(EnvironmentEvidence),
    headers: Type.Optional(
      Type.Record(Type.String({ maxLength: 256 }), Type.String({ maxLength: 8192 }), { maxProperties: 100 }),
    ),
    username: Type.Optional(Type.String({ maxLength: 256 })),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false },
);
export type VerificationRequest = Static<typeof VerificationRequest>;

export const Signal = Type.Object({ rule: Type.String(), score: Type.Number(), description: Type.String() });
export type Signal = Static<typeof Signal>;

export const IdentitySummary = Type.Object({
  cluster_id: Type.String(),
  linked_accounts: Type.Integer(),
  shared_devices: Type.Integer(),
  shared_ips: Type.Integer(),
  shared_payments: Type.Integer(),
});
export type IdentitySummary = Static<typeof IdentitySummary>;

/** Proof-of-work challenge descriptor (SPEC §5, ALTCHA v1 form). */
export const ChallengeDescriptor = Type.Object(
  {
    challenge_id: Type.String(),
    algorithm: Type.String(),
    salt: Type.String(),
    challenge: Type.String(),
    maxnumber: Type.Integer(),
    difficulty: Type.Integer(),
    expires_at: Type.String(),
  },
  { additionalProperties: true },
);
export type ChallengeDescriptor = Static<typeof ChallengeDescriptor>;

export const Decision = Type.Object({
  classification: Classification,
  risk_score: Type.Number({ minimum: 0, maximum: 100 }),
  risk_level: RiskLevel,
  action: Action,
  request_id: Type.String(),
  device_id: Type.String(),
  signals: Type.Array(Signal),
  identity: Type.Optional(IdentitySummary),
  challenge: Type.Optional(ChallengeDescriptor),
  decision_ms: Type.Number(),
  timestamp: Type.String(),
  ruleset_version: Type.String(),
  idempotent_replay: Type.Boolean(),
});
export type Decision = Static<typeof Decision>;

export const MAX_BATCH_EVENTS = 50;
/** Items are validated one by one (a bad item fails alone), so the request schema only bounds the array. */
export const BatchRequest = Type.Object(
  { events: Type.Array(Type.Unknown(), { minItems: 1, maxItems: MAX_BATCH_EVENTS }) },
  { additionalProperties: false },
);

export const ItemError = Type.Object({
  code: Type.String(),
  message: Type.String(),
  details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
});
export type ItemError = Static<typeof ItemError>;

export const BatchItemResult = Type.Union([
  Type.Object({ index: Type.Integer(), success: Type.Literal(true), data: Decision }),
  Type.Object({ index: Type.Integer(), success: Type.Literal(false), error: ItemError }),
]);
export type BatchItemResult = Static<typeof BatchItemResult>;

export const BatchResult = Type.Object({
  results: Type.Array(BatchItemResult),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
});
export type BatchResult = Static<typeof BatchResult>;

/** `difficulty`: integer 1–26 or `low|medium|high`; checked by the challenge module. */
export const ChallengeRequest = Type.Union([
  Type.Object({ difficulty: Type.Optional(Type.Unknown()) }, { additionalProperties: false }),
  Type.Null(),
]);

/** `{challenge_id, nonce}`, or `{altcha}`: the ALTCHA widget's payload for a challenge from /altcha/challenge. */
export const ChallengeVerifyRequest = Type.Union([
  Type.Object(
    {
      challenge_id: Type.String({ minLength: 1, maxLength: 256 }),
      nonce: Type.Union([Type.String({ minLength: 1, maxLength: 32 }), Type.Integer({ minimum: 0 })]),
    },
    { additionalProperties: false },
  ),
  Type.Object({ altcha: Type.String({ minLength: 1, maxLength: 2048 }) }, { additionalProperties: false }),
]);

export const ChallengeVerifyResult = Type.Object({
  valid: Type.Boolean(),
  reason: Type.Optional(
    Type.Union([
      Type.Literal('expired'),
      Type.Literal('invalid_proof'),
      Type.Literal('already_used'),
      Type.Literal('unknown_challenge'),
    ]),
  ),
  challenge_id: Type.String(),
  verified_at: Type.Optional(Type.String()),
});
export type ChallengeVerifyResult = Static<typeof ChallengeVerifyResult>;

export const FingerprintRegistrationRequest = Type.Object(
  {
    fingerprint: FingerprintEvidence,
    behavior: Type.Optional(BehaviorEvidence),
  },
  { additionalProperties: false },
);

export const FingerprintRegistrationResult = Type.Object({
  token: Type.String(),
  device_id: Type.String(),
  expires_at: Type.String(),
});
export type FingerprintRegistrationResult = Static<typeof FingerprintRegistrationResult>;

/** The success envelope (interface 2.1) around a `data` schema. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ success: Type.Literal(true), data, timestamp: Type.String() });
}
