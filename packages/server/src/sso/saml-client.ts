import {
  type CacheItem,
  type CacheProvider,
  generateServiceProviderMetadata,
  SAML,
  ValidateInResponseTo,
} from '@node-saml/node-saml';
import type { HotState } from '../state/hot-state.ts';
import type { SsoConfigsTable } from '../storage/sso-schema.ts';
import type { SpEndpoints } from './endpoints.ts';

/** Tolerated clock difference between Warden and the IdP for NotBefore / NotOnOrAfter. */
export const CLOCK_SKEW_MS = 2 * 60_000;
/** How long an AuthnRequest id stays answerable (the user may take a while at the IdP). */
export const REQUEST_ID_TTL_MS = 15 * 60_000;
export const EMAIL_NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/**
 * AuthnRequest ids kept in hot state (Redis in scale mode), so the process that receives the
 * SAMLResponse need not be the one that sent the request. node-saml removes an id once answered.
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
    if (key === null) return null;
    const value = await this.hotState.get(this.prefix + key);
    await this.hotState.del(this.prefix + key);
    return value;
  }
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
    idpCert: config.idp_certificate,
    idpIssuer: config.idp_entity_id,
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    disableRequestedAuthnContext: true,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.ifPresent,
    requestIdExpirationPeriodMs: REQUEST_ID_TTL_MS,
    cacheProvider: new HotStateRequestCache(hotState, `sso:authn-request:${config.workspace_id}:`),
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
