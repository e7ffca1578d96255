import { DEFAULT_FAMILIES } from './ruleset.ts';

export interface CatalogueSignal {
  name: string;
  family: string;
  /** The default score (some signals scale theirs; docs/signals.md). */
  score: number;
  description: string;
  /** Hard automation evidence: classification `bot` whatever the total. */
  hard: boolean;
}

/** Every built-in signal the default rule set may emit, in evaluation order: the families' own declarations. */
export function signalCatalogue(): CatalogueSignal[] {
  return DEFAULT_FAMILIES.flatMap((family) =>
    Object.entries(family.rules).map(([name, info]) => ({
      name,
      family: family.name,
      score: info.score,
      description: info.description,
      hard: info.hard === true,
    })),
  );
}
