import type { DecisionCreatedEvent } from '@warden/protocol';
import { ACTIONS as ACTION_WORDS } from '@warden/protocol/vocabulary';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ACTIONS: ReadonlySet<string> = new Set(ACTION_WORDS);

export type EventCheck = { ok: true; event: DecisionCreatedEvent } | { ok: false; reason: string };

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/**
 * The list of interface 6.5 rule 2, applied after the signature check: valid JSON, type
 * `decision.created`, `id` a UUID equal to Service-Delivery, non-empty data.id/siteId/accountId,
 * a known metadata.action when present, a finite riskScore in 0–100.
 */
export function validateEvent(rawBody: string, deliveryHeader: string | undefined): EventCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return { ok: false, reason: 'the body is not valid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, reason: 'the body is not a JSON object' };
  }
  const event = parsed as Record<string, unknown>;
  if (event.type !== 'decision.created') return { ok: false, reason: 'type is not decision.created' };
  if (typeof event.id !== 'string' || !UUID.test(event.id)) return { ok: false, reason: 'id is not a UUID' };
  if (deliveryHeader === undefined || event.id.toLowerCase() !== deliveryHeader.trim().toLowerCase()) {
    return { ok: false, reason: 'id does not equal the Service-Delivery header' };
  }
  const data = event.data;
  if (typeof data !== 'object' || data === null) return { ok: false, reason: 'data is missing' };
  const d = data as Record<string, unknown>;
  for (const field of ['id', 'siteId', 'accountId'] as const) {
    if (!nonEmptyString(d[field])) return { ok: false, reason: `data.${field} is not a non-empty string` };
  }
  const metadata = d.metadata;
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null)) {
    return { ok: false, reason: 'data.metadata is not an object' };
  }
  const action = (metadata as Record<string, unknown> | undefined)?.action;
  if (action !== undefined && (typeof action !== 'string' || !ACTIONS.has(action))) {
    return { ok: false, reason: 'data.metadata.action is not allow, review, challenge or block' };
  }
  const score = d.riskScore;
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 100) {
    return { ok: false, reason: 'data.riskScore is not a number from 0 to 100' };
  }
  return { ok: true, event: parsed as DecisionCreatedEvent };
}
