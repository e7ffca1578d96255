import type { BacktestCounts } from '@warden/protocol/management';
import type { Config } from '../config.ts';
import type { RuleDecisions } from '../decisions/rule-queries.ts';
import { ruleInputOfRecord } from '../scoring/rule-input.ts';
import { DEFAULT_FAMILIES, hardRules, isHardRule } from '../scoring/ruleset.ts';
import { applyCustomRules, type RuledDecision } from './apply.ts';
import { ruleBudget } from './budget.ts';
import type { Ruleset } from './ruleset.ts';

export interface BacktestOptions {
  siteId: string;
  from: number;
  to: number;
  /** At most this many recorded events, newest first. */
  maxEvents: number;
  examples: number;
  /** Replay only this decision (test a draft rule on one stored decision). */
  decisionId?: string;
  /** Called with every replayed decision and its outcome (the matches listing, label quality). */
  observe?: (row: ReplayedRow, after: RuledDecision) => void;
}

/** What an observer sees of a recorded decision. */
export interface ReplayedRow {
  id: string;
  event_type: string;
  account_id: string;
  device_id: string;
  email: string | null;
  payment_hash: string | null;
  cluster_id?: string | null | undefined;
  risk_score: number;
  risk_level: string;
  classification: string;
  action: string;
  label: string | null;
  created_at: number;
}

type Counts = Record<string, number>;
/** The counts of a backtest, as answered (`@warden/protocol/management`). */
export type BacktestResult = BacktestCounts;

const PAGE = 2000;
const HARD = hardRules(DEFAULT_FAMILIES);
const isHard = (rule: string) => isHardRule(HARD, rule);
const bump = (c: Counts, k: string) => {
  c[k] = (c[k] ?? 0) + 1;
};

/** What a backtest reads: the recorded decisions and the rules' time budget. */
export interface BacktestDeps {
  readonly services: { readonly decisions: { readonly rules: Pick<RuleDecisions, 'backtestPage'> } };
  readonly config: Pick<Config, 'ruleTimeBudgetMs'>;
}

/**
 * Replay recorded decisions of a time range through a draft rule set: the recorded rule input
 * (scoring/rule-input.ts: features, default signals, event, identity) is kept, list and
 * custom-rule signals are recomputed. Decisions recorded before the rule input was stored are
 * reconstructed from their columns (ruleInputOfRecord). Reads in pages so
 * memory stays flat; 100,000 events take a few seconds.
 */
export async function runBacktest(
  ctx: BacktestDeps,
  ruleset: Ruleset,
  options: BacktestOptions,
): Promise<BacktestResult> {
  const started = performance.now();
  const result: BacktestResult = {
    evaluated: 0,
    from: new Date(options.from).toISOString(),
    to: new Date(options.to).toISOString(),
    truncated: false,
    matches: {},
    before: { actions: {}, levels: {}, classifications: {} },
    after: { actions: {}, levels: {}, classifications: {} },
    changed: 0,
    transitions: {},
    examples: [],
    durationMs: 0,
  };
  // A legacy decision's response is only parsed when a rule looks at the identity cluster.
  const needsIdentity = ruleset.rules.some((r) => r.usesIdentity);
  let cursor: { at: number; id: string } | null = null;
  while (result.evaluated < options.maxEvents) {
    const rows = await ctx.services.decisions.rules.backtestPage(
      options,
      cursor,
      Math.min(PAGE, options.maxEvents - result.evaluated),
    );
    for (const row of rows) {
      // Exactly what live scoring's rules saw when the decision stored it; else reconstructed.
      const after = applyCustomRules(
        ruleset,
        ruleInputOfRecord(row, needsIdentity, isHard),
        ruleBudget(ctx.config.ruleTimeBudgetMs),
      );
      result.evaluated++;
      options.observe?.(row, after);
      for (const name of after.custom.matched) bump(result.matches, name);
      for (const s of after.custom.shadow) bump(result.matches, s.rule);
      bump(result.before.actions, row.action);
      bump(result.before.levels, row.risk_level);
      bump(result.before.classifications, row.classification);
      bump(result.after.actions, after.action);
      bump(result.after.levels, after.risk_level);
      bump(result.after.classifications, after.classification);
      if (after.action !== row.action || after.risk_score !== row.risk_score) {
        result.changed++;
        bump(result.transitions, `${row.action}→${after.action}`);
        if (result.examples.length < options.examples) {
          result.examples.push({
            decisionId: row.id,
            eventType: row.event_type,
            accountId: row.account_id,
            createdAt: new Date(row.created_at).toISOString(),
            before: { score: row.risk_score, level: row.risk_level, action: row.action },
            after: { score: after.risk_score, level: after.risk_level, action: after.action },
            matchedRules: after.custom.matched,
          });
        }
      }
    }
    const last = rows[rows.length - 1];
    if (!last || rows.length < PAGE) break;
    cursor = { at: last.created_at, id: last.id };
  }
  result.truncated = result.evaluated >= options.maxEvents;
  result.durationMs = Math.round(performance.now() - started);
  return result;
}
