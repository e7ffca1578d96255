import type { CatalogueSignal } from '@warden/protocol/management';
import { DEFAULT_FAMILIES } from './ruleset.ts';

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
