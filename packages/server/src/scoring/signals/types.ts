import type { Signal } from '../engine-types.ts';
import type { Features } from '../features.ts';

/** One family of default rules: a pure function of the features, fast and side-effect free. */
export interface SignalFamily {
  name: string;
  /** Every rule the family may emit, with its default score (docs/signals.md, ruleset version). */
  rules: Record<string, RuleInfo>;
  evaluate(features: Features): Signal[];
}

export interface RuleInfo {
  score: number;
  description: string;
  /** Hard automation evidence: classification is `bot` whatever the total. */
  hard?: boolean;
}

/** Build the signal of a declared rule (optionally with a different score or description). */
export function emit(
  family: Pick<SignalFamily, 'rules'>,
  rule: string,
  override: { score?: number; description?: string } = {},
): Signal {
  const info = family.rules[rule];
  if (!info) throw new Error(`undeclared rule ${rule}`);
  return { rule, score: override.score ?? info.score, description: override.description ?? info.description };
}

/** Events submitted from a form (not page views): where a person must have typed or clicked. */
export const FORM_EVENTS: ReadonlySet<string> = new Set(['signup', 'login', 'promo_claim', 'checkout']);
