import { useState } from 'react';
import { api } from '../api/client.ts';
import type { Invitation, Member } from '../api/types.ts';
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
import { href } from '../lib/router.ts';

const ROLE_HELP: Record<Role, string> = {
  owner: 'everything, including sites, keys, webhooks, SSO and members',
  analyst: 'rules, lists, labels and site settings',
  viewer: 'read only',
};

/** The link an invited person opens: the token rides in the fragment, which no server sees. */
function invitationLink(token: string): string {
  return `${location.origin}${href('invite')}#${encodeURIComponent(token)}`;
}

function InviteMember({ workspaceId, onInvited }: { workspaceId: string; onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('analyst');
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const invite = useFormAction(async () => {
    const created = await api.post<Invitation & { token: string }>(
      `/api/workspaces/${encodeURIComponent(workspaceId)}/invitations`,
      { email: email.trim(), role },
    );
    setLink({ email: created.email, url: invitationLink(created.token) });
    setEmail('');
    onInvited();
  });
  const errors = invite.fieldErrors;
  return (
    <form
      className="card"
      aria-label="Invite member"
      onSubmit={(e) => {
        e.preventDefault();
        invite.execute();
      }}
    >
      <h2>Invite member</h2>
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
      </div>
      {invite.error && Object.keys(errors).length === 0 ? (
        <ErrorMessage error={invite.error} title="Not invited" />
      ) : null}
      {link ? (
        <div className="status status-info" role="status">
          <p>
            Send this link to <strong>{link.email}</strong> yourself; it works once, for 7 days, and is not
            shown again:
          </p>
          <input aria-label="Invitation link" readOnly value={link.url} onFocus={(e) => e.target.select()} />
        </div>
      ) : null}
      <button type="submit" className="button primary" disabled={invite.busy || !email.trim()}>
        Invite
      </button>
    </form>
  );
}

function PendingInvitations({ workspaceId, version }: { workspaceId: string; version: number }) {
  const base = `/api/workspaces/${encodeURIComponent(workspaceId)}/invitations`;
  const state = useAsync((signal) => api.get<Invitation[]>(base, undefined, signal), [base, version]);
  const revoke = useAction(async (id: string) => {
    await api.delete(`${base}/${encodeURIComponent(id)}`);
    state.reload();
  });
  const pending = state.data ?? [];
  if (pending.length === 0) return null;
  return (
    <>
      <h2>Pending invitations</h2>
      <ErrorMessage error={revoke.error} title="Not revoked" />
      <Table stacked rowActions testId="invitations" columns={['Invited', 'Role', 'Expires']}>
        {pending.map((i) => (
          <tr key={i.id}>
            <td data-label="Invited">{i.email}</td>
            <td data-label="Role">{i.role}</td>
            <td data-label="Expires">{formatDateTime(i.expiresAt)}</td>
            <td className="actions">
              <button
                type="button"
                className="button small danger-outline"
                disabled={revoke.busy}
                onClick={() => revoke.execute(i.id)}
              >
                Revoke
              </button>
            </td>
          </tr>
        ))}
      </Table>
    </>
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
  const [invited, setInvited] = useState(0);
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
      <PendingInvitations workspaceId={workspaceId} version={invited} />
      <InviteMember workspaceId={workspaceId} onInvited={() => setInvited((n) => n + 1)} />
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
