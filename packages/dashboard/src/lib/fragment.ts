/**
 * The single sign-on callback (contract with the server's SAML ACS): the ACS redirects to
 * `/dashboard/sso-callback#accessToken=…&refreshToken=…&expiresIn=3600&workspaceId=…`.
 */
export interface SsoSession {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  workspaceId: string;
}

export type FragmentResult = { ok: true; session: SsoSession } | { ok: false; error: string };

export function parseSsoFragment(hash: string): FragmentResult {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const error = params.get('error');
  if (error) {
    const description = params.get('error_description') ?? params.get('message');
    return { ok: false, error: description ? `${error}: ${description}` : error };
  }
  const accessToken = params.get('accessToken') ?? '';
  const refreshToken = params.get('refreshToken') ?? '';
  const workspaceId = params.get('workspaceId') ?? '';
  const expiresIn = Number(params.get('expiresIn'));
  const missing = [
    accessToken ? null : 'accessToken',
    refreshToken ? null : 'refreshToken',
    workspaceId ? null : 'workspaceId',
    Number.isFinite(expiresIn) && expiresIn > 0 ? null : 'expiresIn',
  ].filter((x): x is string => x !== null);
  if (missing.length > 0) {
    return { ok: false, error: `The sign-in answer is incomplete (missing ${missing.join(', ')}).` };
  }
  return { ok: true, session: { accessToken, refreshToken, expiresIn, workspaceId } };
}
