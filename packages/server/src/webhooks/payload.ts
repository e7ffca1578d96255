import { createHash } from 'node:crypto';
import {
  ACTIONS,
  type DecisionCreatedData,
  type DecisionCreatedEvent,
  type Signal,
  type SignalEvidence,
} from '@warden/protocol';
import type { DecisionsTable } from '../storage/scoring-schema.ts';

/** The decision columns the payload is built from. */
export type DecisionForPayload = Pick<
  DecisionsTable,
  | 'id'
  | 'site_id'
  | 'event_type'
  | 'account_id'
  | 'ip_address'
  | 'user_agent'
  | 'device_id'
  | 'payment_hash'
  | 'order_amount'
  | 'risk_score'
  | 'risk_level'
  | 'classification'
  | 'action'
  | 'signals'
  | 'decision_ms'
  | 'created_at'
> &
  Partial<Pick<DecisionsTable, 'browser_decision_id'>>;

/** Warden's internal account id: stable for one external account id on one site, reveals neither. */
export function internalAccountId(siteId: string, externalAccountId: string): string {
  const digest = createHash('sha256').update(`${siteId}:${externalAccountId}`).digest('hex');
  return `acct_${digest.slice(0, 24)}`;
}

interface StoredSignal {
  rule: string;
  score: number;
  description: string;
}

/**
 * The well-formed signals of a decision: its stored `signals` JSON, or the very array that JSON was
 * made from (the scoring path has it in memory: not parsed again). Either way the same entries.
 */
function storedSignals(signals: string | readonly unknown[]): StoredSignal[] {
  const parsed: unknown = typeof signals === 'string' ? JSON.parse(signals) : signals;
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { rule, score, description } = item as Record<string, unknown>;
    if (typeof rule !== 'string' || typeof score !== 'number' || !Number.isFinite(score)) return [];
    return [{ rule, score, description: typeof description === 'string' ? description : '' }];
  });
}

type Action = NonNullable<DecisionCreatedData['metadata']['action']>;

function isAction(value: string): value is Action {
  return (ACTIONS as readonly string[]).includes(value);
}

/**
 * `data` of a decision.created event, following SPEC §10 (payload rules). `signals`: the array the
 * row's `signals` column was serialised from, when the caller still has it (saves parsing it back).
 */
export function decisionCreatedData(
  decision: DecisionForPayload,
  signalsInMemory?: readonly Signal[],
): DecisionCreatedData {
  const signals = storedSignals(signalsInMemory ?? decision.signals);
  const summed: Record<string, number> = {};
  const triggered: string[] = [];
  for (const signal of signals) {
    summed[signal.rule] = (summed[signal.rule] ?? 0) + signal.score;
    if (signal.score !== 0 && !triggered.includes(signal.rule)) triggered.push(signal.rule);
  }
  const evidence: SignalEvidence[] = signals.map((s) => ({
    name: s.rule,
    score: s.score,
    description: s.description,
  }));
  const metadata: DecisionCreatedData['metadata'] = {
    ...(isAction(decision.action) ? { action: decision.action } : {}),
    ...(decision.order_amount !== null ? { amount: decision.order_amount } : {}),
    ...(decision.payment_hash !== null ? { paymentHash: decision.payment_hash } : {}),
    decisionMs: decision.decision_ms,
    ...(decision.browser_decision_id ? { browserDecisionId: decision.browser_decision_id } : {}),
    signalEvidence: evidence,
  };
  return {
    id: decision.id,
    siteId: decision.site_id,
    accountId: internalAccountId(decision.site_id, decision.account_id),
    type: decision.event_type,
    riskScore: decision.risk_score,
    riskLevel: decision.risk_level,
    classification: decision.classification,
    signals: summed,
    rulesTriggered: triggered,
    deviceFingerprint: decision.device_id ?? '',
    ipAddress: decision.ip_address ?? '',
    userAgent: decision.user_agent ?? '',
    metadata,
    createdAt: new Date(decision.created_at).toISOString(),
  };
}

/** The exact bytes of one delivery: serialised once, stored, and sent unchanged on every attempt. */
export function serializeDecisionCreated(
  deliveryId: string,
  createdAtMs: number,
  data: DecisionCreatedData,
): string {
  const event: DecisionCreatedEvent = {
    id: deliveryId,
    type: 'decision.created',
    createdAt: new Date(createdAtMs).toISOString(),
    data,
  };
  return JSON.stringify(event);
}
