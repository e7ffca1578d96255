import type { AppContext } from '../context.ts';

/**
 * How often each custom rule of a site matched in a period, live and in shadow, overall and per
 * time bucket (the rules list's counts and sparklines). Read from what each decision recorded when
 * it was made (`features.custom_rules`: the live rules that matched and the shadow matches), so the
 * counts are what the rules really did, not a replay.
 */
export interface RuleHits {
  live: number;
  shadow: number;
  /** Per bucket, oldest first. */
  series: Array<{ live: number; shadow: number }>;
}

interface RecordedCustom {
  custom_rules?: { matched?: string[]; shadow?: Array<{ rule: string }> };
}

export async function ruleHits(
  ctx: AppContext,
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
