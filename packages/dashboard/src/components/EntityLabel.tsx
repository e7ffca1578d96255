import { api } from '../api/client.ts';
import { useApp } from '../app-state.tsx';
import { useAction } from '../hooks/useAction.ts';
import { useAsync } from '../hooks/useAsync.ts';
import type { EntityKind } from '../lib/entities.ts';
import { type EntityLabelKind, labelKindOf } from '../lib/entity-labels.ts';
import { formatDateTime } from '../lib/format.ts';
import { Pill } from './Pill.tsx';
import { ErrorMessage } from './Status.tsx';

interface StoredLabel {
  kind: EntityLabelKind;
  value: string;
  label: 'fraud' | 'legit';
  labeledAt: string;
}

/**
 * The label of an account, device, e-mail, card or cluster as a whole (PUT/DELETE
 * /api/entity-labels): every decision of it, past and future, counts as labelled in backtests and
 * precision/recall. Shows the current label; analysts and owners set, change or undo it.
 */
export function EntityLabelControl({
  siteId,
  kind,
  value,
}: {
  siteId: string;
  kind: EntityKind;
  value: string;
}) {
  const app = useApp();
  const labelKind = labelKindOf(kind);
  const state = useAsync(
    (signal) =>
      labelKind
        ? api.get<{ labels: StoredLabel[] }>('/api/entity-labels', { siteId, kind: labelKind, value }, signal)
        : Promise.resolve({ labels: [] }),
    [siteId, labelKind, value],
  );
  const change = useAction(async (label: 'fraud' | 'legit' | null) => {
    if (!labelKind) return;
    if (label) await api.put('/api/entity-labels', { kind: labelKind, value, label }, { siteId });
    else await api.delete(`/api/entity-labels?${new URLSearchParams({ siteId, kind: labelKind, value })}`);
    state.reload();
  });
  if (!labelKind) return null;
  const current = state.data?.labels[0];
  const canLabel = app.can('decisions.label');
  return (
    <div className="entity-label" data-testid="entity-label">
      <span>
        As a whole:{' '}
        {current ? (
          <>
            <Pill value={current.label} />{' '}
            <span className="muted">since {formatDateTime(current.labeledAt)}</span>
          </>
        ) : (
          <span className="muted">not labelled</span>
        )}
      </span>
      {canLabel ? (
        <span className="entity-label-buttons">
          {(['fraud', 'legit'] as const).map((l) =>
            current?.label === l ? null : (
              <button
                key={l}
                type="button"
                className="button small secondary"
                disabled={change.busy || state.loading}
                onClick={() => void change.execute(l)}
                title={`Every decision of this ${labelKind}, past and future, counts as ${l}`}
              >
                Label {labelKind} {l}
              </button>
            ),
          )}
          {current ? (
            <button
              type="button"
              className="button small secondary"
              disabled={change.busy}
              onClick={() => void change.execute(null)}
            >
              Undo label
            </button>
          ) : null}
        </span>
      ) : null}
      <ErrorMessage error={state.error ?? change.error} title="Entity label" />
    </div>
  );
}
