import { type Static, Type } from '@sinclair/typebox';
import { ACTIONS } from './vocabulary.ts';

/** Webhook payloads (interface 6.3). The only event type is `decision.created`. */

export const WEBHOOK_EVENT_TYPES = ['decision.created'] as const;
export const WEBHOOK_USER_AGENT = 'Service-Webhooks/1.0';
export const WEBHOOK_SIGNATURE_HEADER = 'Service-Signature';
export const WEBHOOK_DELIVERY_HEADER = 'Service-Delivery';

export const SignalEvidence = Type.Object({
  name: Type.String(),
  score: Type.Number(),
  description: Type.String(),
});
export type SignalEvidence = Static<typeof SignalEvidence>;

export const DecisionCreatedMetadata = Type.Object({
  action: Type.Optional(Type.Union(ACTIONS.map((a) => Type.Literal(a)))),
  /** Omitted when the request had no `order_amount`. */
  amount: Type.Optional(Type.Number()),
  /** Omitted when the request had no `payment_hash`. */
  paymentHash: Type.Optional(Type.String()),
  decisionMs: Type.Number(),
  /**
   * On a backend `/verify` decision: the id of the browser decision (`/collect`) of the same page
   * session that it verified and carries (one protected submit, two webhooks). Omitted otherwise.
   */
  browserDecisionId: Type.Optional(Type.String()),
  signalEvidence: Type.Array(SignalEvidence),
});
export type DecisionCreatedMetadata = Static<typeof DecisionCreatedMetadata>;

export const DecisionCreatedData = Type.Object({
  /** The decision id (`request_id` of the scoring answer). */
  id: Type.String({ minLength: 1 }),
  siteId: Type.String({ minLength: 1 }),
  /** Warden's internal account id: stable for one external account id on one site. */
  accountId: Type.String({ minLength: 1 }),
  /** The event type (`context.event_type`). */
  type: Type.String(),
  riskScore: Type.Number({ minimum: 0, maximum: 100 }),
  riskLevel: Type.String(),
  classification: Type.String(),
  /** Rule name → score; same-name signals are summed. */
  signals: Type.Record(Type.String(), Type.Number()),
  /** Names of signals with a non-zero score, in decision order. */
  rulesTriggered: Type.Array(Type.String()),
  deviceFingerprint: Type.String(),
  /** "" when unknown. */
  ipAddress: Type.String(),
  /** "" when unknown. */
  userAgent: Type.String(),
  metadata: DecisionCreatedMetadata,
  createdAt: Type.String({ format: 'date-time' }),
});
export type DecisionCreatedData = Static<typeof DecisionCreatedData>;

export const DecisionCreatedEvent = Type.Object({
  /** The delivery id (UUID), equal to the `Service-Delivery` header. */
  id: Type.String({ format: 'uuid' }),
  type: Type.Literal('decision.created'),
  createdAt: Type.String({ format: 'date-time' }),
  data: DecisionCreatedData,
});
export type DecisionCreatedEvent = Static<typeof DecisionCreatedEvent>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** A delivery as shown in the webhook configuration read (SPEC §7). */
export const WebhookDeliveryRecord = Type.Object({
  id: Type.String(),
  decisionId: Type.String(),
  status: Type.Union(WEBHOOK_DELIVERY_STATUSES.map((s) => Type.Literal(s))),
  attempts: Type.Integer(),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  /** The last attempt's response body, at most 2 KiB. */
  lastResponseBody: Type.Union([Type.String(), Type.Null()]),
  /** When the next attempt is due; null when the delivery is finished. */
  nextAttemptAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type WebhookDeliveryRecord = Static<typeof WebhookDeliveryRecord>;

/** GET/PUT /api/webhooks answer (SPEC §10). */
export const WebhookConfiguration = Type.Object({
  siteId: Type.String(),
  url: Type.Union([Type.String(), Type.Null()]),
  enabled: Type.Boolean(),
  secret: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.Union([Type.String(), Type.Null()]),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
  deliveries: Type.Array(WebhookDeliveryRecord),
});
export type WebhookConfiguration = Static<typeof WebhookConfiguration>;

export const WebhookConfigurationUpdate = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    enabled: Type.Boolean(),
    rotateSecret: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type WebhookConfigurationUpdate = Static<typeof WebhookConfigurationUpdate>;
