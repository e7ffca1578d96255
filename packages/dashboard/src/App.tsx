import { useCallback, useEffect, useState } from 'react';
import { api, setAccessToken, setUnauthorizedHandler } from './api/client.ts';
import { AppProvider } from './app-state.tsx';
import { Shell } from './components/Shell.tsx';
import { navigate, useRoute } from './hooks/useRoute.ts';
import { href } from './lib/router.ts';
import { loadSession, type Session, saveSession } from './lib/session.ts';
import { AcceptInvitation } from './views/AcceptInvitation.tsx';
import { SignIn } from './views/SignIn.tsx';
import { SsoCallback } from './views/SsoCallback.tsx';

function initialSession(): Session | null {
  const session = loadSession();
  setAccessToken(session?.accessToken ?? null);
  return session;
}

export function App() {
  const [session, setSession] = useState<Session | null>(initialSession);
  const [notice, setNotice] = useState<string | null>(null);
  const { route } = useRoute();

  const start = useCallback((next: Session, to?: string) => {
    saveSession(next);
    setAccessToken(next.accessToken);
    setNotice(null);
    setSession(next);
    navigate(to ?? href(''), { replace: true });
  }, []);

  const end = useCallback((message: string | null) => {
    saveSession(null);
    setAccessToken(null);
    setSession(null);
    setNotice(message);
    const here = location.pathname;
    if (here.startsWith('/dashboard/sign-in')) return; // already there (keep its ?next=)
    const next = here.startsWith('/dashboard/sso') ? '' : here;
    navigate(next ? `${href('sign-in')}?next=${encodeURIComponent(next)}` : href('sign-in'), {
      replace: true,
    });
  }, []);

  const signOut = useCallback(() => {
    // Revoke on the server; sign out here whatever it answers.
    api.post('/api/auth/logout').catch(() => undefined);
    end('You are signed out.');
  }, [end]);

  // 401 unauthorized from any request: the token expired or was revoked.
  useEffect(() => {
    setUnauthorizedHandler(() => end('Your session has expired. Sign in again.'));
  }, [end]);

  // The access token lives one hour; sign out when it runs out.
  useEffect(() => {
    if (!session) return;
    const ms = Math.max(0, session.expiresAt - Date.now());
    const id = window.setTimeout(
      () => end('Your session has expired. Sign in again.'),
      Math.min(ms, 2 ** 31 - 1),
    );
    return () => window.clearTimeout(id);
  }, [session, end]);

  useEffect(() => {
    if (!session && route.name !== 'sign-in' && route.name !== 'sso-callback' && route.name !== 'invite') {
      navigate(href('sign-in'), { replace: true });
    }
  }, [session, route.name]);

  if (route.name === 'sso-callback') return <SsoCallback onSession={start} />;
  if (route.name === 'invite') return <AcceptInvitation session={session} onSignedIn={start} />;
  if (!session) return <SignIn onSignedIn={start} notice={notice} />;
  return (
    <AppProvider key={session.accessToken} session={session} signOut={signOut}>
      <Shell route={route} />
    </AppProvider>
  );
}
