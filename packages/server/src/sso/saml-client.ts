import {
  type CacheItem,
  type CacheProvider,
  generateServiceProviderMetadata,
  SAML,
  ValidateInResponseTo,
} from '@node-saml/node-saml';
import type { SpEndpoints } from '@warden/protocol/management';
import type { HotState } from '../state/hot-state.ts';
import type { SsoConfigsTable } from '../storage/sso-schema.ts';
import { splitCertificates } from './certificate.ts';

/** Tolerated clock difference between Warden and the IdP for NotBefore / NotOnOrAfter. */
export const CLOCK_SKEW_MS = 2 * 60_000;
/** How long an AuthnRequest id stays answerable (the user may take a while at the IdP). */
export const REQUEST_ID_TTL_MS = 15 * 60_000;
export const EMAIL_NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

const requestKeyPrefix = (workspaceId: string) => `sso:authn-request:${workspaceId}:`;

/**
 * AuthnRequest ids kept in hot state (Redis in scale mode), so the process that receives the
 * SAMLResponse need not be the one that sent the request.
 *
 * node-saml removes an id as soon as a response names it, even one it then refuses (a tampered
 * copy): whoever saw the id could cancel the user's sign-in. So `removeAsync` does nothing here,
 * and the id is used up by `consumeAuthnRequest` only once a response has passed every check.
 */
export class HotStateRequestCache implements CacheProvider {
  constructor(
    private readonly hotState: HotState,
    private readonly prefix: string,
  ) {}

  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    await this.hotState.set(this.prefix + key, value, REQUEST_ID_TTL_MS);
    return { value, createdAt: Date.now() };
  }

  async getAsync(key: string): Promise<string | null> {
    return this.hotState.get(this.prefix + key);
  }

  async removeAsync(key: string | null): Promise<string | null> {
    return key === null ? null : this.hotState.get(this.prefix + key);
  }
}

/**
 * Use up the AuthnRequest `requestId` of the workspace for a verified response: true for the
 * first caller only (an atomic claim, also across processes), and the id is forgotten.
 */
export async function consumeAuthnRequest(
  hotState: HotState,
  workspaceId: string,
  requestId: string,
): Promise<boolean> {
  const key = requestKeyPrefix(workspaceId) + requestId;
  if ((await hotState.get(key)) === null) return false;
  if (!(await hotState.claimOnce(`sso:authn-answered:${workspaceId}:${requestId}`, REQUEST_ID_TTL_MS))) {
    return false;
  }
  await hotState.del(key);
  return true;
}

/**
 * The node-saml service provider for one workspace's configuration. Cheap to build, so one is
 * made per request and always reflects the stored configuration.
 *
 * - The assertion must be signed with the configured certificate (the whole response may be
 *   signed as well, but need not be).
 * - InResponseTo is checked when present (SP-initiated); IdP-initiated responses have none.
 * - No RequestedAuthnContext, so IdPs may use MFA or any other method.
 */
export function samlClient(config: SsoConfigsTable, sp: SpEndpoints, hotState: HotState): SAML {
  return new SAML({
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    entryPoint: config.sso_url,
    // Every trusted certificate (a key rollover lists two): a signature by any of them is valid.
    idpCert: splitCertificates(config.idp_certificate),
    idpIssuer: config.idp_entity_id,
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    disableRequestedAuthnContext: true,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.ifPresent,
    requestIdExpirationPeriodMs: REQUEST_ID_TTL_MS,
    cacheProvider: new HotStateRequestCache(hotState, requestKeyPrefix(config.workspace_id)),
  });
}

/** The SP metadata an IdP imports: entity id, ACS (HTTP-POST), e-mail NameID, signed assertions. */
export function spMetadataXml(sp: SpEndpoints): string {
  return generateServiceProviderMetadata({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    wantAssertionsSigned: true,
  });
}
