/** The service-provider URLs of one workspace, all derived from the server's public URL. */
export interface SpEndpoints {
  /** SP entity id; also the metadata URL, so an IdP can fetch it. */
  entityId: string;
  /** Assertion Consumer Service: where the IdP posts its SAMLResponse. */
  acsUrl: string;
  metadataUrl: string;
  /** SP-initiated sign-in: redirects to the IdP. */
  loginUrl: string;
}

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

/**
 * Where a successful sign-in lands: the dashboard's callback page, tokens in the fragment (never
 * sent to a server, not in logs or Referer). The path prefix of the public URL is kept.
 */
export function ssoCallbackLocation(
  publicUrl: string,
  session: { accessToken: string; refreshToken: string; expiresIn: number; workspaceId: string },
): string {
  const prefix = new URL(publicUrl).pathname.replace(/\/+$/, '');
  const fragment = new URLSearchParams({
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    expiresIn: String(session.expiresIn),
    workspaceId: session.workspaceId,
  });
  return `${prefix}/dashboard/sso-callback#${fragment.toString()}`;
}
