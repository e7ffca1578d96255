/** The signed-in session, kept in localStorage so a reload or a new tab stays signed in. */
export interface Session {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms when the access token expires. */
  expiresAt: number;
  /** Single sign-on sessions are scoped to one workspace. */
  workspaceId: string | null;
}

const KEY = 'warden.session';
const PREFS = 'warden.prefs';

export function sessionFrom(
  answer: { accessToken: string; refreshToken: string; expiresIn: number },
  workspaceId: string | null,
  now = Date.now(),
): Session {
  return {
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    expiresAt: now + answer.expiresIn * 1000,
    workspaceId,
  };
}

export function isExpired(session: Session, now = Date.now()): boolean {
  return session.expiresAt <= now;
}

export function loadSession(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Session;
    if (typeof s.accessToken !== 'string' || typeof s.expiresAt !== 'number' || isExpired(s)) {
      localStorage.removeItem(KEY);
      return null;
    }
    return s;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) localStorage.setItem(KEY, JSON.stringify(session));
  else localStorage.removeItem(KEY);
}

export interface Prefs {
  workspaceId?: string;
  siteId?: string;
}

export function loadPrefs(): Prefs {
  try {
    return JSON.parse(localStorage.getItem(PREFS) ?? '{}') as Prefs;
  } catch {
    return {};
  }
}

export function savePrefs(prefs: Prefs): void {
  localStorage.setItem(PREFS, JSON.stringify(prefs));
}
