import { type FormEvent, useState } from 'react';
import { api } from '../api/client.ts';
import type { LoginResult } from '../api/types.ts';
import { Field } from '../components/Field.tsx';
import { ErrorMessage } from '../components/Status.tsx';
import { type Session, sessionFrom } from '../lib/session.ts';

/** Where to go after signing in: a dashboard path from `?next=`, never another site. */
function nextPath(): string | undefined {
  const next = new URLSearchParams(location.search).get('next');
  return next?.startsWith('/dashboard/') && !next.startsWith('//') ? next : undefined;
}

export function SignIn({
  onSignedIn,
  notice,
}: {
  onSignedIn: (session: Session, to?: string) => void;
  notice: string | null;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [workspaceId, setWorkspaceId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await api.post<LoginResult>('/api/auth/login', { email: email.trim(), password });
      onSignedIn(sessionFrom(result, null), nextPath());
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  const sso = (event: FormEvent) => {
    event.preventDefault();
    const id = workspaceId.trim();
    if (id) location.assign(`/api/sso/saml/${encodeURIComponent(id)}/login`);
  };

  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <h1 className="brand">
          <img src="/dashboard/favicon.svg" alt="" width="28" height="28" /> Warden
        </h1>
        {notice ? (
          <p className="status status-info" role="status">
            {notice}
          </p>
        ) : null}
        <form onSubmit={submit} aria-labelledby="sign-in-title">
          <h2 id="sign-in-title">Sign in</h2>
          <Field id="email" label="E-mail">
            <input
              id="email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </Field>
          <Field id="password" label="Password">
            <input
              id="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          <ErrorMessage error={error} />
          <button type="submit" className="button primary wide" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <form onSubmit={sso} className="sso-form" aria-labelledby="sso-title">
          <h2 id="sso-title">Single sign-on</h2>
          <Field id="sso-workspace" label="Workspace id">
            <input
              id="sso-workspace"
              required
              value={workspaceId}
              onChange={(e) => setWorkspaceId(e.target.value)}
              placeholder="9a1e…"
            />
          </Field>
          <button type="submit" className="button wide">
            Sign in with SSO
          </button>
        </form>
      </div>
    </main>
  );
}
