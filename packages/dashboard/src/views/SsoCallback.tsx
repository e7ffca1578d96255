import { useEffect, useRef, useState } from 'react';
import { Link } from '../components/Link.tsx';
import { parseSsoFragment } from '../lib/fragment.ts';
import { href } from '../lib/router.ts';
import { type Session, savePrefs, sessionFrom } from '../lib/session.ts';

/**
 * `/dashboard/sso-callback#accessToken=…&refreshToken=…&expiresIn=…&workspaceId=…` (the SAML
 * ACS redirects here): store the session, drop the tokens from the address bar and history,
 * and open the dashboard on that workspace.
 */
export function SsoCallback({ onSession }: { onSession: (session: Session, to?: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    const result = parseSsoFragment(location.hash);
    // The tokens must not stay in the URL (history, screenshots, referrers).
    history.replaceState(null, '', location.pathname);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    const { session } = result;
    savePrefs({ workspaceId: session.workspaceId });
    onSession(sessionFrom(session, session.workspaceId), href(''));
  }, [onSession]);

  return (
    <main className="center-page">
      {error ? (
        <div className="status status-error" role="alert">
          <strong>Single sign-on failed.</strong> {error} <Link href={href('sign-in')}>Back to sign-in</Link>
        </div>
      ) : (
        <p className="status" role="status">
          Signing you in…
        </p>
      )}
    </main>
  );
}
