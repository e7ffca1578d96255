import { useState } from 'react';
import { api } from '../api/client.ts';
import type { AuditEntry, AuditPage } from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { Field } from '../components/Field.tsx';
import { Empty, ErrorMessage, Loading } from '../components/Status.tsx';
import { Table } from '../components/Table.tsx';
import { useAction } from '../hooks/useAction.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { describeChange } from '../lib/audit.ts';
import { formatDateTime } from '../lib/format.ts';

const ACTIONS = [
  'rule.create',
  'rule.update',
  'rule.delete',
  'list.create',
  'list.update',
  'list.delete',
  'member.add',
  'member.update',
  'member.remove',
  'invitation.create',
  'invitation.revoke',
  'site.create',
  'site.update',
  'site.rotate_keys',
  'webhook.update',
  'sso.update',
  'decision.label',
  'entity.label',
  'entity.unlabel',
];

/** A readable name for the target: a rule's or list's name, a member's e-mail. */
function targetName(e: AuditEntry): string | null {
  const state = (e.after ?? e.before ?? {}) as { name?: unknown; email?: unknown };
  const name =
    typeof state.name === 'string' ? state.name : typeof state.email === 'string' ? state.email : null;
  return name ? `${e.targetType} ${name}` : null;
}

function Row({ e }: { e: AuditEntry }) {
  const lines = describeChange(e.action, e.before, e.after);
  return (
    <tr data-audit-action={e.action}>
      <td data-label="Time">{formatDateTime(e.createdAt)}</td>
      <td data-label="Who">{e.actor.email ?? e.actor.userId ?? '–'}</td>
      <td data-label="Action">
        <code>{e.action}</code>
      </td>
      <td data-label="Target" className="truncate" title={e.targetId}>
        {targetName(e) ?? <span className="mono">{e.targetId}</span>}
      </td>
      <td data-label="Change" className="audit-change">
        {lines.length === 0 ? (
          <span className="muted">no field changed</span>
        ) : (
          <ul>
            {lines.slice(0, 8).map((l) => (
              <li key={l}>{l}</li>
            ))}
            {lines.length > 8 ? <li className="muted">… {lines.length - 8} more</li> : null}
          </ul>
        )}
      </td>
    </tr>
  );
}

function AuditList({ workspaceId }: { workspaceId: string }) {
  const [action, setAction] = useState('');
  const [more, setMore] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null | undefined>(undefined);
  const first = useAsync(
    (signal) => {
      setMore([]);
      setCursor(undefined);
      return api.get<AuditPage>('/api/audit', { workspaceId, action, limit: 50 }, signal);
    },
    [workspaceId, action],
  );
  const next = cursor === undefined ? (first.data?.nextCursor ?? null) : cursor;
  const loadMore = useAction(async () => {
    if (!next) return;
    const page = await api.get<AuditPage>('/api/audit', { workspaceId, action, limit: 50, cursor: next });
    setMore((old) => [...old, ...page.items]);
    setCursor(page.nextCursor);
  });
  const items = [...(first.data?.items ?? []), ...more];
  return (
    <>
      <div className="audit-filter">
        <Field id="audit-action" label="Action">
          <select id="audit-action" value={action} onChange={(e) => setAction(e.target.value)}>
            <option value="">Any</option>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {first.loading && !first.data ? <Loading label="Loading the audit log…" /> : null}
      <ErrorMessage error={first.error} title="Could not load the audit log" />
      {first.data && items.length === 0 ? <Empty>No changes recorded yet.</Empty> : null}
      {items.length > 0 ? (
        <Table
          stacked
          className="audit-table"
          testId="audit-table"
          columns={['Time', 'Who', 'Action', 'Target', 'Change']}
        >
          {items.map((e) => (
            <Row key={e.id} e={e} />
          ))}
        </Table>
      ) : null}
      <ErrorMessage error={loadMore.error} title="Could not load more" />
      {next ? (
        <div className="pager">
          <span className="muted">{items.length} shown</span>
          <button
            type="button"
            className="button secondary"
            disabled={loadMore.busy}
            onClick={() => loadMore.execute()}
          >
            {loadMore.busy ? 'Loading…' : 'Load older'}
          </button>
        </div>
      ) : null}
    </>
  );
}

/** Who changed rules, lists, members, keys, webhooks and SSO (owners and analysts). */
export function AuditView() {
  const app = useApp();
  return (
    <section>
      <h1>Audit log</h1>
      {!app.workspace ? (
        <Empty>No workspace selected.</Empty>
      ) : !app.can('audit.read') ? (
        <Empty>Owners and analysts can read the audit log.</Empty>
      ) : (
        <AuditList key={app.workspace.id} workspaceId={app.workspace.id} />
      )}
    </section>
  );
}
