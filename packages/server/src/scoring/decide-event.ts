import { applyCustomRules, type RuledDecision, type RuleInput } from '../rules/apply.ts';
import type { RuleBudget } from '../rules/budget.ts';
import { EMPTY_RULESET, type Ruleset } from '../rules/ruleset.ts';
import type { Signal } from './engine-types.ts';
import type { Features } from './features.ts';
import { isHardRule } from './ruleset.ts';
import { carryBrowserSession, carryRecentRisk, session } from './signals/session.ts';
import type { SignalFamily } from './signals/types.ts';

/**
 * What observe (observe.ts) found for one event: everything decide needs, as plain data.
 * `event` is the CEL `event` variable (rules/apply.ts eventVariables); `features.identity` the
 * identity summary when the plan computes it; `features.browser_session` the carried session.
 */
export interface ObservedEvent {
  features: Features;
  event: Record<string, unknown>;
  ip: string;
}

/** The rules an event is decided by: default families, their hard rules, the site's custom rules. */
export interface DecideRules {
  families: readonly SignalFamily[];
  /** hardRules(families). */
  hard: ReadonlySet<string>;
  custom: Ruleset;
  /** The custom rules' budget; its clock is the only clock decide reads. */
  budget: RuleBudget;
}

export interface Decided {
  decision: RuledDecision;
  /** The features as recorded: the observed ones plus `custom_rules` when the site has rules. */
  features: Record<string, unknown>;
  /** Exactly what the custom rules saw (stored with the decision: rule-input.ts). */
  ruleInput: RuleInput;
  /** Signal families that threw (skipped: a family fails open); the caller logs them. */
  failures: Array<{ family: string; err: unknown }>;
}

/**
 * The pure engine: default signals of every family, carried session risk, lists and custom rules,
 * score → level → classification → action (SPEC §2). No I/O, no hot state, no clock but the rule
 * budget's; it neither mutates its input nor keeps anything: the same input gives the same
 * decision (up to a rule that runs out of its time budget).
 */
export function decide(observed: ObservedEvent, rules: DecideRules): Decided {
  const { features } = observed;
  const failures: Decided['failures'] = [];
  const defaults: Signal[] = [];
  for (const family of rules.families) {
    try {
      for (const s of family.evaluate(features)) if (s.score !== 0) defaults.push(s);
    } catch (err) {
      failures.push({ family: family.name, err });
    }
  }
  if (rules.families.includes(session)) {
    for (const s of carryBrowserSession(features, defaults)) defaults.push(s);
    const carried = carryRecentRisk(features, defaults);
    if (carried) defaults.push(carried);
  }
  // Hard evidence carried from the browser session is hard here too (`carried_automation_webdriver`).
  const hardAutomation = defaults.some((s) => s.score > 0 && isHardRule(rules.hard, s.rule));
  const featureRecord = features as unknown as Record<string, unknown>;
  const ruleInput: RuleInput = {
    eventType: features.event_type,
    event: observed.event,
    features: featureRecord,
    signals: defaults,
    identity: (features.identity ?? undefined) as Record<string, unknown> | undefined,
    deviceId: features.device_id,
    ip: observed.ip,
    hardAutomation,
  };
  const decision = applyCustomRules(rules.custom, ruleInput, rules.budget);
  const recorded =
    rules.custom === EMPTY_RULESET ? featureRecord : { ...featureRecord, custom_rules: decision.custom };
  return { decision, features: recorded, ruleInput, failures };
}
