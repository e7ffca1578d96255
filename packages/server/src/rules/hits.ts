import type { RuleHits } from '@warden/protocol/management';
import type { RuleDecisions } from '../decisions/rule-queries.ts';

interface RecordedCustom {
  custom_rules?: { matched?: string[]; shadow?: Array<{ rule: string }> };
}

export async function ruleHits(
  ctx: {
    readonly services: { readonly decisions: { readonly rules: Pick<RuleDecisions, 'recordedMatches'> } };
  },
  siteId: string,
  range: { from: number; to: number },
  buckets: number,
): Promise<Map<string, RuleHits>> {
  const rows = await ctx.services.decisions.rules.recordedMatches(siteId, range.from, range.to);
  const width = (range.to - range.from) / buckets;
  const out = new Map<string, RuleHits>();
  const entry = (name: string) => {
    let e = out.get(name);
    if (!e) {
      e = { live: 0, shadow: 0, series: Array.from({ length: buckets }, () => ({ live: 0, shadow: 0 })) };
      out.set(name, e);
    }
    return e;
  };
  for (const row of rows) {
    const custom = (JSON.parse(row.features) as RecordedCustom).custom_rules;
    if (!custom) continue;
    const b = Math.min(buckets - 1, Math.floor((row.created_at - range.from) / width));
    for (const name of new Set(custom.matched ?? [])) {
      const e = entry(name);
      e.live++;
      const slot = e.series[b];
      if (slot) slot.live++;
    }
    for (const name of new Set((custom.shadow ?? []).map((s) => s.rule))) {
      const e = entry(name);
      e.shadow++;
      const slot = e.series[b];
      if (slot) slot.shadow++;
    }
  }
  return out;
}
