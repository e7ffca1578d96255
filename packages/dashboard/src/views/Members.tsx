import { useState } from 'react';
import { api } from '../api/client.ts';
import type { Member } from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { Field } from '../components/Field.tsx';
import { Select } from '../components/Select.tsx';
import { Empty, ErrorMessage, Loading } from '../components/Status.tsx';
import { Table } from '../components/Table.tsx';
import { useAction, useFormAction } from '../hooks/useAction.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { formatDateTime } from '../lib/format.ts';
import { ROLES, type Role } from '../lib/permissions.ts';

const ROLE_HELP: Record<Role, string> = {
  owner: 'everything, including sites, keys, webhooks, SSO and members',
  analyst: 'rules, lists, labels and site settings',
  viewer: 'read only',
};

function AddMember({ workspaceId, onAdded }: { workspaceId: string; onAdded: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('analyst');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const add = useFormAction(async () => {
    await api.post<Member>(`/api/workspaces/${encodeURIComponent(workspaceId)}/members`, {
      email: email.trim(),
      role,
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(password ? { password } : {}),
    });
    setEmail('');
    setName('');
    setPassword('');
    onAdded();
  });
  const errors = add.fieldErrors;
  return (
    <form
      className="card"
      aria-label="Add member"
      onSubmit={(e) => {
        e.preventDefault();
        add.execute();
      }}
    >
      <h2>Add member</h2>
      <div className="form-grid">
        <Field id="member-email" label="E-mail" errors={errors.email}>
          <input
            id="member-email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Field id="member-role" label="Role" errors={errors.role} hint={ROLE_HELP[role]}>
          <Select id="member-role" value={role} options={ROLES} onChange={(v) => setRole(v as Role)} />
        </Field>
        <Field id="member-name" label="Name (new accounts)" errors={errors.name}>
          <input id="member-name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field
          id="member-password"
          label="Initial password (new accounts)"
          errors={errors.password}
          hint="8+ characters; hand it over yourself. Ignored for existing accounts."
        >
          <input
            id="member-password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
      </div>
      {add.error && Object.keys(errors).length === 0 ? (
        <ErrorMessage error={add.error} title="Not added" />
      ) : null}
      <button type="submit" className="button primary" disabled={add.busy || !email.trim()}>
        Add member
      </button>
    </form>
  );
}

function MemberRow({
  member,
  isSelf,
  workspaceId,
  onChanged,
  onRemove,
}: {
  member: Member;
  isSelf: boolean;
  workspaceId: string;
  onChanged: () => void;
  onRemove: (m: Member) => void;
}) {
  const change = useAction(async (role: Role) => {
    await api.patch(
      `/api/workspaces/${encodeURIComponent(workspaceId)}/members/${encodeURIComponent(member.userId)}`,
      {
        role,
      },
    );
    onChanged();
  });
  return (
    <tr>
      <td data-label="Member">
        <div>
          {member.name} {isSelf ? <span className="muted">(you)</span> : null}
          <div className="muted">{member.email}</div>
          <ErrorMessage error={change.error} />
        </div>
      </td>
      <td data-label="Role">
        <Select
          ariaLabel={`Role of ${member.email}`}
          value={member.role}
          options={ROLES}
          disabled={change.busy}
          onChange={(v) => change.execute(v as Role)}
        />
      </td>
      <td data-label="Joined">{formatDateTime(member.joinedAt)}</td>
      <td className="actions">
        <button type="button" className="button small danger-outline" onClick={() => onRemove(member)}>
          Remove
        </button>
      </td>
    </tr>
  );
}

/** Members are the owner's (SPEC §6): the list shows every colleague's e-mail address. */
export function MembersView() {
  const app = useApp();
  const workspaceId = app.workspace?.id;
  return (
    <section>
      <h1>Members</h1>
      {!workspaceId ? (
        <Empty>No workspace selected.</Empty>
      ) : !app.can('members.manage') ? (
        <Empty>Only workspace owners see and manage members.</Empty>
      ) : (
        <MemberManager workspaceId={workspaceId} selfId={app.user.id} />
      )}
    </section>
  );
}

function MemberManager({ workspaceId, selfId }: { workspaceId: string; selfId: string }) {
  const state = useAsync(
    (signal) =>
      api.get<Member[]>(`/api/workspaces/${encodeURIComponent(workspaceId)}/members`, undefined, signal),
    [workspaceId],
  );
  const [removing, setRemoving] = useState<Member | null>(null);
  const remove = useAction(async (m: Member) => {
    await api.delete(
      `/api/workspaces/${encodeURIComponent(workspaceId)}/members/${encodeURIComponent(m.userId)}`,
    );
    setRemoving(null);
    state.reload();
  });
  const members = state.data ?? [];
  return (
    <>
      <p className="muted">Owners manage members; analysts write rules, lists and labels; viewers read.</p>
      {state.loading && !state.data ? <Loading label="Loading members…" /> : null}
      <ErrorMessage error={state.error} title="Could not load the members" />
      {state.data && members.length === 0 ? <Empty>No members.</Empty> : null}
      {members.length > 0 ? (
        <Table stacked rowActions testId="members" columns={['Member', 'Role', 'Joined']}>
          {members.map((m) => (
            <MemberRow
              key={m.userId}
              member={m}
              isSelf={m.userId === selfId}
              workspaceId={workspaceId}
              onChanged={state.reload}
              onRemove={setRemoving}
            />
          ))}
        </Table>
      ) : null}
      <AddMember workspaceId={workspaceId} onAdded={state.reload} />
      <ConfirmDialog
        open={removing !== null}
        title="Remove member"
        confirmLabel="Remove"
        busy={remove.busy}
        error={remove.error}
        onConfirm={() => removing && remove.execute(removing)}
        onCancel={() => setRemoving(null)}
      >
        Remove <strong>{removing?.email}</strong> from this workspace? Their access ends at once.
      </ConfirmDialog>
    </>
  );
}
