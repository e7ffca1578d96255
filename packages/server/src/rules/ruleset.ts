import { createHash } from 'node:crypto';
import type { Action, Signal } from '../scoring/engine-types.ts';
import type { ListsTable, RulesTable } from '../storage/rules-schema.ts';
import { type RuleBudget, RuleBudgetExceeded, RuleMeter, ruleBudget } from './budget.ts';
import { type CompiledExpression, compileExpression, type RuleVariables } from './cel.ts';
import { compileLists, type ListMatcher } from './lists.ts';

export interface CompiledRule {
  id: string;
  name: string;
  description: string;
  mode: 'live' | 'shadow';
  eventTypes: ReadonlySet<string> | null;
  score: number | null;
  action: Action | null;
  priority: number;
  /** The expression reads the `identity` variable. */
  usesIdentity: boolean;
  run: CompiledExpression;
}

/** The custom rules and lists of one site, compiled once and evaluated on every event. */
export interface Ruleset {
  /** Hash of the enabled rules and lists: part of every decision's `ruleset_version`. */
  version: string;
  rules: CompiledRule[];
  lists: ListMatcher;
}

export interface ShadowMatch {
  rule: string;
  score: number;
  action: Action | null;
}

export interface RuleOutcome {
  signals: Signal[];
  /** An action forced by a live rule or a list (highest priority wins). */
  forcedAction: Action | null;
  /** True when an allow list matched: the event is allowed whatever else fired. */
  allowlisted: boolean;
  shadow: ShadowMatch[];
  /** Steps each evaluated rule took, and how it ended (budget bookkeeping; not recorded). */
  usage: RuleUsage[];
}

export interface RuleUsage {
  rule: string;
  steps: number;
  result: 'matched' | 'no_match' | 'error' | 'timeout';
}

type RuleStamp = Pick<RulesTable, 'id' | 'enabled' | 'priority' | 'created_at' | 'updated_at'>;
type ListStamp = Pick<ListsTable, 'id' | 'updated_at'>;

/** Enabled rules in evaluation order: highest priority first, then oldest first. */
function enabledInOrder<R extends RuleStamp>(ruleRows: readonly R[]): R[] {
  return ruleRows
    .filter((r) => r.enabled === 1)
    .sort((a, b) => b.priority - a.priority || a.created_at - b.created_at);
}

/**
 * The version a rule set built from these rows would have, from the few columns that identify a
 * change (so a store can tell "unchanged" without loading expressions and list entries).
 */
export function rulesetVersionOf(ruleRows: readonly RuleStamp[], listRows: readonly ListStamp[]): string {
  const hash = createHash('sha256');
  for (const r of enabledInOrder(ruleRows)) hash.update(`${r.id}|${r.updated_at}|`);
  for (const l of listRows) hash.update(`${l.id}|${l.updated_at}|`);
  return hash.digest('hex').slice(0, 12);
}

/** Compile stored rows. Rows that no longer compile are kept out and reported as a signal at run time. */
export function buildRuleset(ruleRows: readonly RulesTable[], listRows: readonly ListsTable[]): Ruleset {
  const enabled = enabledInOrder(ruleRows);
  const rules: CompiledRule[] = enabled.map((row) => {
    const compiled = compileExpression(row.expression);
    const run: CompiledExpression = compiled.ok
      ? compiled.run
      : () => {
          throw new Error(compiled.details[0]?.message ?? 'does not compile');
        };
    const eventTypes = JSON.parse(row.event_types) as string[];
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      mode: row.mode,
      eventTypes: eventTypes.length > 0 ? new Set(eventTypes) : null,
      score: row.score,
      action: row.action,
      priority: row.priority,
      usesIdentity: /\bidentity\b/.test(row.expression),
      run,
    };
  });
  return { version: rulesetVersionOf(ruleRows, listRows), rules, lists: compileLists(listRows) };
}

export const EMPTY_RULESET: Ruleset = buildRuleset([], []);

const LIST_CHECKS = [
  ['ip', (v: RuleVariables) => v.event.ip],
  ['email', (v: RuleVariables) => v.event.email],
  ['email_domain', (v: RuleVariables) => domainOf(v.event.email)],
  ['device_id', (v: RuleVariables) => v.device.device_id],
  ['account_id', (v: RuleVariables) => v.event.account_id],
  ['payment_hash', (v: RuleVariables) => v.event.payment_hash],
] as const;

function domainOf(email: unknown): string | undefined {
  return typeof email === 'string' && email.includes('@')
    ? email.slice(email.lastIndexOf('@') + 1)
    : undefined;
}

function listSignals(
  ruleset: Ruleset,
  vars: RuleVariables,
): { signals: Signal[]; allow: boolean; block: boolean } {
  const signals: Signal[] = [];
  let allow = false;
  let block = false;
  for (const [kind, pick] of LIST_CHECKS) {
    const value = pick(vars);
    if (typeof value !== 'string' || value === '') continue;
    for (const match of ruleset.lists.matching(kind, value)) {
      if (match.type === 'allow') allow = true;
      else block = true;
      signals.push({
        rule: `${match.type}list:${match.name}`,
        score: match.type === 'allow' ? 0 : 100,
        description: `The ${kind.replace('_', ' ')} is on the ${match.type} list "${match.name}".`,
      });
    }
  }
  return { signals, allow, block };
}

function timeoutSignal(rule: CompiledRule, reason: string): Signal {
  return {
    rule: `rule_timeout:${rule.name}`,
    score: 0,
    description: `Custom rule "${rule.name}" was skipped for this decision: ${reason}.`,
  };
}

/**
 * Evaluate lists and custom rules for one event. Never throws: a failing rule becomes a
 * `rule_error:` signal, a rule that runs out of its steps or of the decision's time budget a
 * `rule_timeout:` signal (both score 0: the rule is skipped, the decision goes on without it).
 */
export function evaluateRuleset(
  ruleset: Ruleset,
  vars: RuleVariables,
  eventType: string,
  budget: RuleBudget = ruleBudget(),
): RuleOutcome {
  const lists = listSignals(ruleset, vars);
  const outcome: RuleOutcome = {
    signals: lists.signals,
    forcedAction: lists.allow ? 'allow' : lists.block ? 'block' : null,
    allowlisted: lists.allow,
    shadow: [],
    usage: [],
  };
  if (ruleset.rules.length === 0) return outcome;
  const deadline = budget.now() + budget.timeMs;
  for (const rule of ruleset.rules) {
    if (rule.eventTypes && !rule.eventTypes.has(eventType)) continue;
    if (budget.now() > deadline) {
      outcome.usage.push({ rule: rule.name, steps: 0, result: 'timeout' });
      outcome.signals.push(timeoutSignal(rule, `the rule time budget of ${budget.timeMs} ms was used up`));
      continue;
    }
    const meter = new RuleMeter(budget.stepsPerRule, deadline, budget.now);
    let matched: boolean;
    try {
      matched = rule.run(vars, meter, ruleset.lists) === true;
      if (meter.exhausted) throw meter.exhausted;
    } catch (err) {
      const exceeded = meter.exhausted ?? (err instanceof RuleBudgetExceeded ? err : null);
      outcome.usage.push({ rule: rule.name, steps: meter.used, result: exceeded ? 'timeout' : 'error' });
      if (exceeded) {
        outcome.signals.push(
          timeoutSignal(
            rule,
            exceeded.reason === 'steps'
              ? `it reached its limit of ${budget.stepsPerRule} evaluation steps`
              : `the rule time budget of ${budget.timeMs} ms was used up`,
          ),
        );
        continue;
      }
      outcome.signals.push({
        rule: `rule_error:${rule.name}`,
        score: 0,
        description: `Custom rule "${rule.name}" failed and was skipped: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
      });
      continue;
    }
    outcome.usage.push({ rule: rule.name, steps: meter.used, result: matched ? 'matched' : 'no_match' });
    if (!matched) continue;
    if (rule.mode === 'shadow') {
      outcome.shadow.push({ rule: rule.name, score: rule.score ?? 0, action: rule.action });
      continue;
    }
    if (rule.score !== null && rule.score !== 0) {
      outcome.signals.push({
        rule: `custom:${rule.name}`,
        score: rule.score,
        description: rule.description || `Custom rule "${rule.name}" matched.`,
      });
    } else if (rule.action) {
      outcome.signals.push({
        rule: `custom:${rule.name}`,
        score: 0,
        description: rule.description || `Custom rule "${rule.name}" matched.`,
      });
    }
    if (rule.action && outcome.forcedAction === null) outcome.forcedAction = rule.action;
  }
  if (lists.allow) outcome.forcedAction = 'allow';
  return outcome;
}
