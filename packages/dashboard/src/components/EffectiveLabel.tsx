import type { DecisionSummary } from '../api/types.ts';
import { LABEL_KIND_NAMES } from '../lib/entity-labels.ts';
import { Pill } from './Pill.tsx';

/**
 * The label a decision counts with in backtests and rule statistics: its own, else the newest label
 * of its account, device, e-mail, card or cluster as a whole, saying which ("via cluster").
 */
export function EffectiveLabel({ d }: { d: DecisionSummary }) {
  const entity = d.entityLabel;
  if (d.label || !entity) return <Pill value={d.label} />;
  const name = LABEL_KIND_NAMES[entity.kind];
  return (
    <span className="effective-label" title={`Labelled ${entity.label} as the ${name} ${entity.value}`}>
      <Pill value={entity.label} /> <span className="muted">via {name}</span>
    </span>
  );
}
