/** A shadow rule's match as recorded with a decision (`features.custom_rules.shadow`, docs/rules.md). */
export interface ShadowHit {
  rule: string;
  score: number;
  action: string | null;
}

/** The shadow matches recorded in a decision's features; [] when none or the shape is unexpected. */
export function shadowHitsOf(features: Record<string, unknown>): ShadowHit[] {
  const custom = features.custom_rules as { shadow?: unknown } | undefined;
  if (!custom || !Array.isArray(custom.shadow)) return [];
  return custom.shadow.flatMap((s: unknown) => {
    const m = s as { rule?: unknown; score?: unknown; action?: unknown };
    if (typeof m.rule !== 'string') return [];
    return [
      {
        rule: m.rule,
        score: typeof m.score === 'number' ? m.score : 0,
        action: typeof m.action === 'string' ? m.action : null,
      },
    ];
  });
}
