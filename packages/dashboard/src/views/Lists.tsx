import { type FormEvent, useState } from 'react';
import { api } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import { LIST_KINDS, type List, type ListKind, type Site } from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { Field } from '../components/Field.tsx';
import { Pill } from '../components/Pill.tsx';
import { RequireSite } from '../components/RequireSite.tsx';
import { Select } from '../components/Select.tsx';
import { Empty, ErrorMessage, Loading } from '../components/Status.tsx';
import { useAction, useFormAction } from '../hooks/useAction.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { formatDateTime, formatNumber } from '../lib/format.ts';
import { parseEntries } from '../lib/forms.ts';

function ListEditor({
  list,
  canWrite,
  onSaved,
  onDelete,
}: {
  list: List;
  canWrite: boolean;
  onSaved: (list: List) => void;
  onDelete: (list: List) => void;
}) {
  const [text, setText] = useState(list.entries.join('\n'));
  const [errors, setErrors] = useState<string[]>([]);
  const save = useAction(async () => {
    setErrors([]);
    try {
      const saved = await api.patch<List>(`/api/lists/${encodeURIComponent(list.id)}`, {
        entries: parseEntries(text),
      });
      setText(saved.entries.join('\n'));
      onSaved(saved);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'validation_failed') {
        setErrors(
          err.details.length
            ? err.details.map((d) => `${d.path.replace(/^body\./, '')}: ${d.message}`)
            : [err.message],
        );
      }
      throw err;
    }
  });
  const id = `list-${list.id}`;
  return (
    <div className="card">
      <div className="page-head">
        <h2>
          <code>{list.name}</code> <Pill value={`${list.type} list`} kind={`${list.type}-list`} />{' '}
          <span className="count">
            {list.kind.replace(/_/g, ' ')} · {formatNumber(list.size)} entries
          </span>
        </h2>
        {canWrite ? (
          <button type="button" className="button small danger-outline" onClick={() => onDelete(list)}>
            Delete
          </button>
        ) : null}
      </div>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.execute();
        }}
      >
        <Field
          id={id}
          label="Entries, one per line"
          errors={errors}
          hint={`Updated ${formatDateTime(list.updatedAt)}`}
        >
          <textarea
            id={id}
            className="editor"
            rows={5}
            readOnly={!canWrite}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </Field>
        {save.error && errors.length === 0 ? <ErrorMessage error={save.error} title="Not saved" /> : null}
        {canWrite ? (
          <button type="submit" className="button" disabled={save.busy}>
            Save entries
          </button>
        ) : null}
      </form>
    </div>
  );
}

function CreateList({ siteId, onCreated }: { siteId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ListKind>('ip');
  const [type, setType] = useState<'allow' | 'block'>('block');
  const [entries, setEntries] = useState('');
  const create = useFormAction(async () => {
    await api.post<List>(
      '/api/lists',
      { name: name.trim(), kind, type, entries: parseEntries(entries) },
      { siteId },
    );
    setName('');
    setEntries('');
    onCreated();
  });
  const errors = create.fieldErrors;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.execute();
  };
  const entryErrors = Object.entries(errors)
    .filter(([k]) => k.startsWith('entries'))
    .flatMap(([k, v]) => v.map((m) => `${k}: ${m}`));
  return (
    <form className="card" onSubmit={submit} aria-label="New list">
      <h2>New list</h2>
      <div className="form-grid">
        <Field
          id="list-name"
          label="Name"
          errors={errors.name}
          hint="Used in rules: inList(&quot;name&quot;, value)"
        >
          <input id="list-name" required value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field id="list-kind" label="Kind" errors={errors.kind}>
          <Select id="list-kind" value={kind} options={LIST_KINDS} onChange={(v) => setKind(v as ListKind)} />
        </Field>
        <Field
          id="list-type"
          label="Type"
          errors={errors.type}
          hint="Block forces block; allow trusts the event"
        >
          <Select
            id="list-type"
            value={type}
            options={['block', 'allow']}
            onChange={(v) => setType(v as 'allow' | 'block')}
          />
        </Field>
      </div>
      <Field id="list-entries" label="Entries, one per line" errors={entryErrors}>
        <textarea
          id="list-entries"
          className="editor"
          rows={3}
          value={entries}
          onChange={(e) => setEntries(e.target.value)}
        />
      </Field>
      {create.error && Object.keys(errors).length === 0 ? (
        <ErrorMessage error={create.error} title="Not created" />
      ) : null}
      <button type="submit" className="button primary" disabled={create.busy || !name.trim()}>
        Create list
      </button>
    </form>
  );
}

function SiteLists({ site }: { site: Site }) {
  const app = useApp();
  const canWrite = app.can('rules.write');
  const state = useAsync(
    (signal) => api.get<{ lists: List[] }>('/api/lists', { siteId: site.id }, signal),
    [site.id],
  );
  const [deleting, setDeleting] = useState<List | null>(null);
  const remove = useAction(async (list: List) => {
    await api.delete(`/api/lists/${encodeURIComponent(list.id)}`);
    setDeleting(null);
    state.reload();
  });
  const lists = state.data?.lists ?? [];
  return (
    <>
      {state.loading && !state.data ? <Loading label="Loading lists…" /> : null}
      <ErrorMessage error={state.error} title="Could not load the lists" />
      {state.data && lists.length === 0 ? <Empty>No lists yet.</Empty> : null}
      {lists.map((list) => (
        <ListEditor
          key={`${list.id}-${list.updatedAt}`}
          list={list}
          canWrite={canWrite}
          onSaved={(saved) => state.setData({ lists: lists.map((l) => (l.id === saved.id ? saved : l)) })}
          onDelete={setDeleting}
        />
      ))}
      {canWrite ? <CreateList siteId={site.id} onCreated={state.reload} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete list"
        confirmLabel="Delete"
        busy={remove.busy}
        error={remove.error}
        onConfirm={() => deleting && remove.execute(deleting)}
        onCancel={() => setDeleting(null)}
      >
        Delete the list <code>{deleting?.name}</code> and its {formatNumber(deleting?.size ?? 0)} entries?
        Rules that use it stop matching it.
      </ConfirmDialog>
    </>
  );
}

export function ListsView() {
  return (
    <section>
      <h1>Allow and block lists</h1>
      <p className="muted">
        IPs (and CIDR ranges), e-mails, e-mail domains, device ids, account ids and payment hashes. A block
        list match forces block; an allow list match lets the event through as human.
      </p>
      <RequireSite>{(site) => <SiteLists key={site.id} site={site} />}</RequireSite>
    </section>
  );
}
