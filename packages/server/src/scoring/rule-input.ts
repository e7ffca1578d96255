import { eventVariables, isRuleSignal, type RuleInput } from '../rules/apply.ts';
import type { EventType, Signal } from './engine-types.ts';
import type { StoredRuleInput, StoredRuleInputV1 } from './stored-rule-input.ts';

export const RULE_INPUT_VERSION = 1;

/** What is stored for a live decision's rule input. */
export function storedRuleInput(input: RuleInput): StoredRuleInputV1 {
  return {
    v: 1,
    event: input.event,
    identity: input.identity ?? null,
    device_id: input.deviceId,
    ip: input.ip,
    hard_automation: input.hardAutomation,
    default_signals: input.signals.length,
  };
}

/** The columns of a recorded decision a replay reads. */
export interface RecordedRuleColumns {
  event_type: string;
  account_id: string;
  email: string | null;
  ip_address: string;
  user_agent: string;
  device_id: string;
  payment_hash: string | null;
  promo_code: string | null;
  order_amount: number | null;
  signals: string;
  features: string;
  /** JSON of StoredRuleInput; null for decisions recorded before migration 013. */
  rule_input?: string | null | undefined;
  /** The recorded response, parsed only for a legacy decision when the rules use identity. */
  response: string;
}

/**
 * The rule input a recorded decision's rules saw. With a stored rule input (version 1) that is
 * exact. Without one (decisions recorded before it existed) it is reconstructed as backtests
 * always did: the event variable from the columns (request_url unknown: null; login outcome and
 * surface from the features), the identity from the recorded response (read only when
 * `needsIdentity`), default signals = the recorded signals that no list or rule produced, hard
 * automation judged by today's hard rules (`isHard`).
 */
export function ruleInputOfRecord(
  row: RecordedRuleColumns,
  needsIdentity: boolean,
  isHard: (rule: string) => boolean,
): RuleInput {
  const features = JSON.parse(row.features) as Record<string, unknown>;
  delete features.custom_rules;
  const signals = JSON.parse(row.signals) as Signal[];
  const stored = row.rule_input ? (JSON.parse(row.rule_input) as Partial<StoredRuleInput>) : null;
  if (stored?.v === 1) {
    return {
      eventType: row.event_type as EventType,
      event: stored.event as Record<string, unknown>,
      features,
      signals: signals.slice(0, stored.default_signals),
      identity: stored.identity ?? undefined,
      deviceId: stored.device_id ?? row.device_id,
      ip: stored.ip ?? row.ip_address,
      hardAutomation: stored.hard_automation === true,
    };
  }
  const recorded = signals.filter((s) => !isRuleSignal(s.rule));
  const response = needsIdentity ? (JSON.parse(row.response) as { identity?: Record<string, unknown> }) : {};
  return {
    eventType: row.event_type as EventType,
    event: eventVariables({
      ...row,
      ip: row.ip_address,
      login_succeeded: typeof features.login_succeeded === 'boolean' ? features.login_succeeded : null,
      surface: typeof features.surface === 'string' ? features.surface : null,
    }),
    features,
    signals: recorded,
    identity: response.identity,
    deviceId: row.device_id,
    ip: row.ip_address,
    hardAutomation: recorded.some((s) => s.score > 0 && isHard(s.rule)),
  };
}
