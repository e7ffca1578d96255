import type { SpEndpoints } from '@warden/protocol/management';

function samlBasePath(workspaceId: string): string {
  return `/api/sso/saml/${encodeURIComponent(workspaceId)}`;
}

export function spEndpoints(publicUrl: string, workspaceId: string): SpEndpoints {
  const base = `${publicUrl}${samlBasePath(workspaceId)}`;
  return {
    entityId: `${base}/metadata`,
    acsUrl: `${base}/acs`,
    metadataUrl: `${base}/metadata`,
    loginUrl: `${base}/login`,
  };
}

function dashboardPrefix(publicUrl: string): string {
  return new URL(publicUrl).pathname.replace(/\/+$/, '');
}

/**
 * Where a refused sign-in lands in a browser: the dashboard's callback page, which shows the
 * reason (`error`) with a link back to the sign-in page. `code` is the API error code.
 */
export function ssoErrorLocation(publicUrl: string, code: string, message: string): string {
  const fragment = new URLSearchParams({ error: message, code });
  return `${dashboardPrefix(publicUrl)}/dashboard/sso-callback#${fragment.toString()}`;
}

/**
 * Where a successful sign-in lands: the dashboard's callback page, tokens in the fragment (never
 * sent to a server, not in logs or Referer). The path prefix of the public URL is kept.
 */
export function ssoCallbackLocation(
  publicUrl: string,
  session: { accessToken: string; refreshToken: string; expiresIn: number; workspaceId: string },
): string {
  const prefix = dashboardPrefix(publicUrl);
  const fragment = new URLSearchParams({
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    expiresIn: String(session.expiresIn),
    workspaceId: session.workspaceId,
  });
  return `${prefix}/dashboard/sso-callback#${fragment.toString()}`;
}
