import type { BacktestReport, LabelQuality, MatchedDecision } from '@warden/protocol/management';
import type { LabelResolver } from '../entities/label-resolver.ts';
import type { RuledDecision } from './apply.ts';
import type { ReplayedRow } from './backtest.ts';

/**
 * What a backtest reports beyond its counts (issue 16): the decisions the rules matched, one page
 * of them, and each rule's precision and recall against the analysts' labels over the replayed
 * range (a decision's own label, else its entity's). Fed decision by decision through
 * `runBacktest`'s `observe`, so memory stays flat.
 */

/** Precision or recall, rounded to 3 places; null until there is something to divide. */
export function ratio(hits: number, misses: number): number | null {
  return hits + misses === 0 ? null : Math.round((hits / (hits + misses)) * 1000) / 1000;
}

function emptyQuality(): LabelQuality {
  return {
    labeled: 0,
    truePositives: 0,
    falsePositives: 0,
    falseNegatives: 0,
    trueNegatives: 0,
    precision: null,
    recall: null,
  };
}

/** Count one labelled decision into a rule's confusion matrix. */
export function countLabel(q: LabelQuality, hit: boolean, label: string): void {
  const fraud = label === 'fraud';
  q.labeled++;
  if (hit && fraud) q.truePositives++;
  else if (hit) q.falsePositives++;
  else if (fraud) q.falseNegatives++;
  else q.trueNegatives++;
}

export function finishQuality(q: LabelQuality): LabelQuality {
  return {
    ...q,
    precision: ratio(q.truePositives, q.falsePositives),
    recall: ratio(q.truePositives, q.falseNegatives),
  };
}

/**
 * An observer for `runBacktest` and the report it builds. `allRules`: every rule of the replayed
 * rule set (each gets a quality entry); `focus`: the rules whose matches are listed; `labels`: which
 * label each decision counts with.
 */
export function backtestReporter(
  allRules: readonly string[],
  focus: readonly string[],
  page: { offset: number; limit: number },
  labels: Pick<LabelResolver, 'labelOf'>,
) {
  const focusSet = new Set(focus);
  const quality = new Map(allRules.map((name) => [name, emptyQuality()]));
  const items: MatchedDecision[] = [];
  let total = 0;
  const observe = (row: ReplayedRow, after: RuledDecision) => {
    const shadowRules = after.custom.shadow.map((s) => s.rule);
    const hits = new Set([...after.custom.matched, ...shadowRules]);
    const label = labels.labelOf(row);
    if (label) {
      for (const [name, q] of quality) countLabel(q, hits.has(name), label);
    }
    if (![...hits].some((name) => focusSet.has(name))) return;
    total++;
    if (total <= page.offset || items.length >= page.limit) return;
    items.push({
      decisionId: row.id,
      eventType: row.event_type,
      accountId: row.account_id,
      createdAt: new Date(row.created_at).toISOString(),
      label,
      before: { score: row.risk_score, level: row.risk_level, action: row.action },
      after: { score: after.risk_score, level: after.risk_level, action: after.action },
      matchedRules: after.custom.matched,
      shadowRules,
    });
  };
  const report = (): BacktestReport => ({
    matched: {
      rules: [...focus],
      total,
      offset: page.offset,
      limit: page.limit,
      nextOffset: page.offset + items.length < total ? page.offset + items.length : null,
      items,
    },
    quality: Object.fromEntries([...quality].map(([name, q]) => [name, finishQuality(q)])),
  });
  return { observe, report };
}
