// The words of the scoring API, each list written once. Plain constants with no import, so the
// browser and the Node SDK can take them (`@warden/protocol/vocabulary`) without TypeBox; the
// schemas built from them are in scoring.ts.

export const EVENT_TYPES = ['signup', 'login', 'promo_claim', 'checkout', 'page_view'] as const;
export const CLASSIFICATIONS = ['human', 'suspicious', 'bot'] as const;
export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export const ACTIONS = ['allow', 'review', 'challenge', 'block'] as const;
/** What an analyst can label as a whole (management API `/api/entity-labels`). */
export const ENTITY_LABEL_KINDS = ['account', 'device', 'email', 'payment', 'cluster'] as const;
export type EntityLabelKind = (typeof ENTITY_LABEL_KINDS)[number];
/**
 * The entities an analyst pivots on (management API `/api/entities/summary`): each is also a
 * decisions-list filter of the same name, which selects the entity.
 */
export const ENTITY_KINDS = [
  'accountId',
  'ip',
  'ipPrefix',
  'deviceId',
  'email',
  'emailDomain',
  'paymentHash',
  'promoCode',
  'clusterId',
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];
