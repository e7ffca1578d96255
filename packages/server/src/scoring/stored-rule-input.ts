/**
 * The rule input of a decision as stored in `decisions.rule_input` (migration 013): together with
 * the decision's `features` and `signals` columns it is exactly what its custom rules saw, so a
 * backtest replays it (rules/backtest.ts). Versioned: a reader knows every version it may meet.
 *
 * Version 1 stores what no other column holds exactly (the CEL `event` variable, request_url
 * included; the identity summary; whether hard automation evidence fired, as the engine of that
 * day judged it) and references the rest instead of copying kilobytes per decision:
 * - `features`: the `features` column without its `custom_rules` key (added after the rules ran);
 * - default signals: the first `default_signals` entries of the `signals` column (lists and custom
 *   rules append theirs after them).
 */
export interface StoredRuleInputV1 {
  v: 1;
  event: Record<string, unknown>;
  identity: Record<string, unknown> | null;
  device_id: string;
  ip: string;
  hard_automation: boolean;
  default_signals: number;
}

export type StoredRuleInput = StoredRuleInputV1;
