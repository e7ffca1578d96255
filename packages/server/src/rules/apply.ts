import { classify, defaultAction, enforceBotFloor, riskLevel, riskScore } from '../scoring/decide.ts';
import type { Action, Classification, EventType, RiskLevel, Signal } from '../scoring/engine-types.ts';
import { type RuleBudget, ruleBudget } from './budget.ts';
import type { RuleVariables } from './cel.ts';
import { EMPTY_RULESET, evaluateRuleset, type Ruleset, type ShadowMatch } from './ruleset.ts';

/** What the engine knows about an event before custom rules run (live, or rebuilt from a record). */
export interface RuleInput {
  eventType: EventType;
  event: Record<string, unknown>;
  features: Record<string, unknown>;
  /** The default signals, in order. */
  signals: readonly Signal[];
  identity: Record<string, unknown> | undefined;
  deviceId: string;
  ip: string;
  /** A default signal of hard automation evidence fired. */
  hardAutomation: boolean;
}

export interface RuledDecision {
  signals: Signal[];
  risk_score: number;
  risk_level: RiskLevel;
  classification: Classification;
  action: Action;
  /** Names of live custom rules that matched, and shadow matches: recorded with the decision. */
  custom: { matched: string[]; shadow: ShadowMatch[] };
}

function signalMap(signals: readonly Signal[]): Record<string, number> {
  const map: Record<string, number> = {};
  for (const s of signals) map[s.rule] = (map[s.rule] ?? 0) + s.score;
  return map;
}

export function ruleVariables(input: RuleInput): RuleVariables {
  return {
    event: input.event,
    features: input.features,
    signals: signalMap(input.signals),
    identity: input.identity ?? {
      cluster_id: '',
      linked_accounts: 0,
      shared_devices: 0,
      shared_ips: 0,
      shared_payments: 0,
    },
    device: { device_id: input.deviceId },
    ip: {
      address: input.ip,
      version: input.ip.includes(':') ? 6 : input.ip === '' ? 0 : 4,
      country: (input.features.ip as { country?: string | null } | undefined)?.country ?? null,
    },
    score: riskScore(input.signals),
  };
}

/**
 * Lists and custom rules on top of the default signals, then score → level → classification →
 * action (SPEC §2). An allow-list match adds a signal that cancels the positive score, so the
 * signals still add up to the (zero) score and the event is allowed as human. Any other forced
 * action still respects the bot floor: a bot is never allowed.
 */
export function applyCustomRules(
  ruleset: Ruleset,
  input: RuleInput,
  budget: RuleBudget = ruleBudget(),
): RuledDecision {
  const outcome =
    ruleset === EMPTY_RULESET
      ? { signals: [], forcedAction: null, allowlisted: false, shadow: [] }
      : evaluateRuleset(ruleset, ruleVariables(input), input.eventType, budget);
  const signals = [...input.signals, ...outcome.signals];
  if (outcome.allowlisted) {
    const positive = riskScore(signals);
    const marker = signals.findIndex((s) => s.rule.startsWith('allowlist:'));
    const allow = signals[marker];
    if (allow && positive > 0) signals[marker] = { ...allow, score: allow.score - positive };
  }
  const risk_score = riskScore(signals);
  const risk_level = riskLevel(risk_score);
  const classification = outcome.allowlisted ? 'human' : classify(risk_level, input.hardAutomation);
  const action = outcome.allowlisted
    ? 'allow'
    : enforceBotFloor(
        outcome.forcedAction ?? defaultAction(risk_level, classification, input.eventType),
        classification,
      );
  const matched = outcome.signals
    .filter((s) => s.rule.startsWith('custom:'))
    .map((s) => s.rule.slice('custom:'.length));
  return {
    signals,
    risk_score,
    risk_level,
    classification,
    action,
    custom: { matched, shadow: outcome.shadow },
  };
}

/** Signals that come from lists and custom rules (stripped when a recorded decision is replayed). */
export function isRuleSignal(rule: string): boolean {
  return /^(custom|allowlist|blocklist|rule_error|rule_timeout):/.test(rule);
}

/** The `event` variable of CEL rules: the same keys live and in backtests, null when unknown. */
export function eventVariables(e: {
  event_type: string;
  account_id: string;
  email?: string | null | undefined;
  order_amount?: number | null | undefined;
  payment_hash?: string | null | undefined;
  promo_code?: string | null | undefined;
  ip: string;
  user_agent: string;
  request_url?: string | null | undefined;
  login_succeeded?: boolean | null | undefined;
  surface?: string | null | undefined;
}): Record<string, unknown> {
  return {
    type: e.event_type,
    account_id: e.account_id,
    email: e.email ?? null,
    order_amount: e.order_amount ?? null,
    payment_hash: e.payment_hash ?? null,
    promo_code: e.promo_code ?? null,
    ip: e.ip,
    user_agent: e.user_agent,
    request_url: e.request_url ?? null,
    login_succeeded: e.login_succeeded ?? null,
    surface: e.surface ?? null,
  };
}
