import { type FormEvent, useState } from 'react';
import { api } from '../api/client.ts';
import type { InvitationPreview, LoginResult } from '../api/types.ts';
import { Field } from '../components/Field.tsx';
import { ErrorMessage, Loading } from '../components/Status.tsx';
import { useAsync } from '../hooks/useAsync.ts';
import { href } from '../lib/router.ts';
import { type Session, sessionFrom } from '../lib/session.ts';

/** The token travels in the link's fragment (`/dashboard/invite#inv_…`): never sent in a URL. */
function tokenFromLocation(): string {
  return decodeURIComponent(location.hash.replace(/^#/, ''));
}

/**
 * Accept an invitation: signed in as the invited address, one click; otherwise with the
 * address's password (an existing account) or a new one (the account is created), then signed in.
 */
export function AcceptInvitation({
  session,
  onSignedIn,
}: {
  session: Session | null;
  onSignedIn: (session: Session, to?: string) => void;
}) {
  const [token] = useState(tokenFromLocation);
  const preview = useAsync(() => api.post<InvitationPreview>('/api/invitations/preview', { token }), [token]);
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [accepted, setAccepted] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const withPassword = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const email = preview.data?.email ?? '';
      await api.post('/api/invitations/accept', {
        token,
        password,
        ...(name.trim() ? { name: name.trim() } : {}),
      });
      const result = await api.post<LoginResult>('/api/auth/login', { email, password });
      onSignedIn(sessionFrom(result, null), href(''));
    });
  };
  const asSignedIn = () =>
    run(async () => {
      await api.post('/api/invitations/accept', { token });
      setAccepted(true);
      setBusy(false);
    });

  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <h1 className="brand">
          <img src="/dashboard/favicon.svg" alt="" width="28" height="28" /> Warden
        </h1>
        <h2>Invitation</h2>
        {preview.loading ? <Loading label="Reading the invitation…" /> : null}
        <ErrorMessage error={preview.error} title="This invitation cannot be used" />
        {preview.data ? (
          <p data-testid="invitation">
            <strong>{preview.data.email}</strong> is invited to <strong>{preview.data.workspaceName}</strong>{' '}
            as <strong>{preview.data.role}</strong>.
          </p>
        ) : null}
        {preview.data && accepted ? (
          <p className="status status-info" role="status">
            You joined {preview.data.workspaceName}. <a href={href('')}>Open the dashboard</a>
          </p>
        ) : null}
        {preview.data && !accepted && session ? (
          <>
            <p className="muted">
              You are signed in: accept as that account (it must be {preview.data.email}).
            </p>
            <ErrorMessage error={error} />
            <button type="button" className="button primary wide" disabled={busy} onClick={asSignedIn}>
              Accept
            </button>
          </>
        ) : null}
        {preview.data && !session ? (
          <form onSubmit={withPassword} aria-label="Accept invitation">
            <Field
              id="invite-password"
              label="Password"
              hint="Your Warden password if this address already has an account; otherwise choose one (8+ characters)."
            >
              <input
                id="invite-password"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </Field>
            <Field id="invite-name" label="Your name (new accounts)">
              <input id="invite-name" value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
            <ErrorMessage error={error} />
            <button type="submit" className="button primary wide" disabled={busy}>
              {busy ? 'Joining…' : 'Accept and sign in'}
            </button>
          </form>
        ) : null}
      </div>
    </main>
  );
}
