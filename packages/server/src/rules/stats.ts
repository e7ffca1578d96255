import type { RuleDecisions } from '../decisions/rule-queries.ts';
import { type LabelDeps, labelResolver } from '../entities/label-resolver.ts';
import type { RulesTable } from '../storage/rules-schema.ts';

const DAY = 24 * 3600 * 1000;

/** Did this recorded decision match the rule (live signal, or shadow match in the recorded features)? */
function matched(rule: RulesTable, signals: string, features: string): boolean {
  if (signals.includes(`"custom:${rule.name}"`)) return true;
  if (!features.includes(rule.name)) return false;
  const custom = (JSON.parse(features) as { custom_rules?: { shadow?: Array<{ rule: string }> } })
    .custom_rules;
  return custom?.shadow?.some((s) => s.rule === rule.name) ?? false;
}

/** What rule statistics read: the recorded decisions, the labels (with their clusters) and the clock. */
export interface RuleStatsDeps extends LabelDeps {
  readonly services: LabelDeps['services'] & {
    readonly decisions: { readonly rules: Pick<RuleDecisions, 'labeled' | 'mentioning'> };
  };
  now(): number;
}

/**
 * Precision and recall of a rule against analyst labels (`fraud` is the positive class; a decision's
 * own label, else its entity's: entities/label-resolver.ts) over
 * `[from, to)` (default: since the rule was created), and how often it matched in the last 30 days.
 * A decision counts as matched when it recorded the rule's match; decisions made before the rule
 * existed never did: to judge the rule as written on older decisions, backtest it.
 */
export async function ruleStats(
  ctx: RuleStatsDeps,
  rule: RulesTable,
  range: { from?: number; to?: number } = {},
) {
  const decisions = ctx.services.decisions.rules;
  const from = range.from ?? rule.created_at;
  const to = range.to ?? ctx.now() + 1;
  const labels = await labelResolver(ctx, rule.site_id);
  const labeled = (await decisions.labeled(rule.site_id, from, to, labels.cover)).flatMap((d) => {
    const label = labels.labelOf(d);
    return label ? [{ ...d, label }] : [];
  });
  const counts = { truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0 };
  for (const d of labeled) {
    const hit = matched(rule, d.signals, d.features);
    const fraud = d.label === 'fraud';
    if (hit && fraud) counts.truePositives++;
    else if (hit) counts.falsePositives++;
    else if (fraud) counts.falseNegatives++;
    else counts.trueNegatives++;
  }
  const since = ctx.now() - 30 * DAY;
  const recent = await decisions.mentioning(rule.site_id, rule.name, since);
  const ratio = (a: number, b: number) => (a + b === 0 ? null : Math.round((a / (a + b)) * 1000) / 1000);
  return {
    ruleId: rule.id,
    name: rule.name,
    mode: rule.mode,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    labeled: labeled.length,
    ...counts,
    precision: ratio(counts.truePositives, counts.falsePositives),
    recall: ratio(counts.truePositives, counts.falseNegatives),
    matchesLast30Days: recent.filter((d) => matched(rule, d.signals, d.features)).length,
    /** Decisions for which the rule was skipped because it ran out of its time budget. */
    timeoutsLast30Days: recent.filter((d) => d.signals.includes(`"rule_timeout:${rule.name}"`)).length,
  };
}
