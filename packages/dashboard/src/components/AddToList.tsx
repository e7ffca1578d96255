import { useState } from 'react';
import { api } from '../api/client.ts';
import type { DecisionSummary, List, ListKind } from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { useAction } from '../hooks/useAction.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { emailDomainOf } from '../lib/entities.ts';
import { formatCount } from '../lib/format.ts';
import { ErrorMessage } from './Status.tsx';

export type ListValues = Partial<Record<ListKind, string[]>>;

/** What a decision offers to a list: its account, e-mail and domain, IP, device and card. */
export function listValuesOf(d: DecisionSummary): ListValues {
  const one = (v: string | null | undefined) => (v ? [v] : []);
  return {
    account_id: one(d.accountId),
    email: one(d.email),
    email_domain: one(d.email ? emailDomainOf(d.email) : null),
    ip: one(d.ipAddress),
    device_id: one(d.deviceId),
    payment_hash: one(d.paymentHash),
  };
}

const KIND_NAMES: Record<ListKind, string> = {
  ip: 'IP',
  email: 'e-mail',
  email_domain: 'e-mail domain',
  device_id: 'device',
  account_id: 'account',
  payment_hash: 'payment hash',
};

/**
 * "Add to list": the site's allow and block lists that fit one of `values` (by kind), and a button
 * that adds that kind's values to the chosen list (PATCH /api/lists/{id} with `add`: one
 * transaction, audited as list.update). Hidden for roles that may not change lists.
 */
export function AddToList({
  siteId,
  values,
  label = 'Add to list',
}: {
  siteId: string;
  values: ListValues;
  label?: string;
}) {
  const app = useApp();
  const allowed = app.can('rules.write');
  const lists = useAsync(
    (signal) =>
      allowed ? api.get<{ lists: List[] }>('/api/lists', { siteId }, signal) : Promise.resolve({ lists: [] }),
    [siteId, allowed],
  );
  const [chosen, setChosen] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const usable = (lists.data?.lists ?? []).filter((l) => (values[l.kind]?.length ?? 0) > 0);
  const target = usable.find((l) => l.id === chosen) ?? usable[0];
  const add = useAction(async (list: List) => {
    const entries = values[list.kind] ?? [];
    const saved = await api.patch<List>(`/api/lists/${encodeURIComponent(list.id)}`, { add: entries });
    setDone(
      `Added ${formatCount(entries.length, KIND_NAMES[list.kind])} to ${list.type} list ${saved.name}.`,
    );
    lists.reload();
  });
  if (!allowed) return null;
  if (lists.data && usable.length === 0) {
    return <p className="muted add-to-list">No allow or block list of a matching kind yet.</p>;
  }
  return (
    <form
      className="add-to-list"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        setDone(null);
        if (target) void add.execute(target);
      }}
    >
      <label>
        {label}{' '}
        <select value={target?.id ?? ''} onChange={(e) => setChosen(e.target.value)} disabled={!lists.data}>
          {usable.map((l) => (
            <option key={l.id} value={l.id}>
              {l.type} · {l.name} ({KIND_NAMES[l.kind]}:{' '}
              {values[l.kind]?.length === 1
                ? values[l.kind]![0]
                : formatCount(values[l.kind]?.length ?? 0, 'value')}
              )
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="submit" className="button" disabled={!target || add.busy}>
        {add.busy ? 'Adding…' : 'Add'}
      </button>
      {done ? (
        <span role="status" className="muted">
          {' '}
          {done}
        </span>
      ) : null}
      <ErrorMessage error={add.error} title="Not added" />
    </form>
  );
}
