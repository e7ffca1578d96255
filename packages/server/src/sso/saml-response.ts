import { type Profile, type SAML, SamlStatusError } from '@node-saml/node-saml';
import { parseDomFromString, xpath } from '@node-saml/node-saml/lib/xml.js';
import type { AttributeMapping, SpEndpoints } from '@warden/protocol/management';
import type { SsoConfigsTable } from '../storage/sso-schema.ts';
import { attributeMappingOf, mappedValues } from './attribute-mapping.ts';
import { CLOCK_SKEW_MS, EMAIL_NAME_ID_FORMAT } from './saml-client.ts';

/** Why a SAMLResponse was refused; the reason is shown to the user, never the response itself. */
export class SamlRefusal extends Error {
  constructor(readonly reason: string) {
    super(`SAML response refused: ${reason}`);
    this.name = 'SamlRefusal';
  }
}

/** What a valid, signed assertion tells us. */
export interface VerifiedAssertion {
  email: string;
  /** The display name from the mapped name attributes, if the IdP sent one. */
  name: string | undefined;
  assertionId: string;
  /** The AuthnRequest this answers (SP-initiated), null for an IdP-initiated response. */
  inResponseTo: string | null;
  /** Until when the assertion would be accepted: how long its id must be remembered. */
  expiresAt: number;
}

/** Without any NotOnOrAfter, an assertion is accepted this long after its IssueInstant. */
const MAX_AGE_WITHOUT_EXPIRY_MS = 5 * 60_000;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export const NO_EMAIL_REFUSAL =
  'no e-mail address in the assertion (an e-mail NameID or one of the e-mail attributes of the attribute mapping)';
export const IN_RESPONSE_TO_REFUSAL = 'it does not answer a sign-in request of this server (InResponseTo)';

/** node-saml's error messages, mapped to the reasons users and operators see. */
function refusalOf(err: unknown): SamlRefusal {
  if (err instanceof SamlRefusal) return err;
  if (err instanceof SamlStatusError) return new SamlRefusal('the identity provider reported an error');
  const message = err instanceof Error ? err.message : String(err);
  const rules: Array<[RegExp, string]> = [
    [/No response found|Unknown SAML response|Not a valid XML/i, 'malformed response'],
    [/signature/i, 'invalid signature'],
    [/audience/i, 'audience mismatch'],
    [/not yet valid/i, 'assertion not yet valid'],
    [/expired|too old|subject confirmation/i, 'assertion expired'],
    [/InResponseTo/i, IN_RESPONSE_TO_REFUSAL],
    [/issuer/i, 'issuer mismatch'],
    [/Missing SAML assertion/i, 'no assertion in the response'],
  ];
  for (const [pattern, reason] of rules) if (pattern.test(message)) return new SamlRefusal(reason);
  return new SamlRefusal('malformed response');
}

function attribute(element: Element | undefined, name: string): string | undefined {
  const value = element?.getAttribute(name);
  return value ? value : undefined;
}

function timeOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new SamlRefusal('malformed response');
  return ms;
}

function emailOf(profile: Profile, mapping: AttributeMapping): string {
  const candidates: unknown[] = [];
  if (profile.nameIDFormat === EMAIL_NAME_ID_FORMAT) candidates.push(profile.nameID);
  candidates.push(...mappedValues(attributesOf(profile), mapping.email));
  candidates.push(profile.nameID);
  const email = candidates.find((c): c is string => typeof c === 'string' && EMAIL.test(c.trim()));
  if (!email) throw new SamlRefusal(NO_EMAIL_REFUSAL);
  return email.trim();
}

function attributesOf(profile: Profile): Record<string, unknown> {
  return (profile.attributes ?? {}) as Record<string, unknown>;
}

/**
 * The checks node-saml leaves to us, made on the signed assertion: issuer, recipient and lifetime
 * of the bearer subject confirmation, and on the response: destination and issuer when present.
 */
async function checkEnvelope(
  responseXml: string,
  assertionXml: string,
  config: SsoConfigsTable,
  sp: SpEndpoints,
  now: number,
): Promise<{ assertionId: string; expiresAt: number }> {
  const response = (await parseDomFromString(responseXml)).documentElement;
  const destination = attribute(response, 'Destination');
  if (destination !== undefined && destination !== sp.acsUrl) throw new SamlRefusal('destination mismatch');
  const responseIssuer = xpath.selectElements(response, "./*[local-name()='Issuer']")[0]?.textContent?.trim();
  if (responseIssuer !== undefined && responseIssuer !== config.idp_entity_id) {
    throw new SamlRefusal('issuer mismatch');
  }

  const assertion = (await parseDomFromString(assertionXml)).documentElement;
  const assertionId = attribute(assertion, 'ID');
  if (!assertionId) throw new SamlRefusal('malformed response');
  const issuer = xpath.selectElements(assertion, "./*[local-name()='Issuer']")[0]?.textContent?.trim();
  if (issuer !== config.idp_entity_id) throw new SamlRefusal('issuer mismatch');

  const confirmations = xpath.selectElements(
    assertion,
    "./*[local-name()='Subject']/*[local-name()='SubjectConfirmation'][@Method='urn:oasis:names:tc:SAML:2.0:cm:bearer']/*[local-name()='SubjectConfirmationData']",
  );
  if (confirmations.length === 0) throw new SamlRefusal('no bearer subject confirmation');
  const matching = confirmations.filter((c) => attribute(c, 'Recipient') === sp.acsUrl);
  if (matching.length === 0) throw new SamlRefusal('recipient mismatch');

  const conditions = xpath.selectElements(assertion, "./*[local-name()='Conditions']")[0];
  const deadlines = [
    ...matching.map((c) => timeOf(attribute(c, 'NotOnOrAfter'))),
    timeOf(attribute(conditions, 'NotOnOrAfter')),
  ].filter((t): t is number => t !== undefined);
  const issuedAt = timeOf(attribute(assertion, 'IssueInstant'));
  const expiresAt =
    deadlines.length > 0 ? Math.min(...deadlines) : (issuedAt ?? 0) + MAX_AGE_WITHOUT_EXPIRY_MS;
  if (now - CLOCK_SKEW_MS >= expiresAt) throw new SamlRefusal('assertion expired');
  const notBefore = [
    ...matching.map((c) => timeOf(attribute(c, 'NotBefore'))),
    timeOf(attribute(conditions, 'NotBefore')),
  ].filter((t): t is number => t !== undefined);
  if (notBefore.some((t) => now + CLOCK_SKEW_MS < t)) throw new SamlRefusal('assertion not yet valid');
  return { assertionId, expiresAt: expiresAt + CLOCK_SKEW_MS };
}

/**
 * Verify a base64 SAMLResponse posted to the ACS: signature against the configured certificate,
 * audience, time window, InResponseTo (when present), issuer, recipient and destination.
 * Throws SamlRefusal with the reason. Replay is checked by the caller (the id must be stored).
 */
export async function verifySamlResponse(
  saml: SAML,
  samlResponse: string,
  config: SsoConfigsTable,
  sp: SpEndpoints,
  now: number,
): Promise<VerifiedAssertion> {
  try {
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
    if (!profile?.getAssertionXml) throw new SamlRefusal('no assertion in the response');
    const responseXml = Buffer.from(samlResponse, 'base64').toString('utf8');
    const envelope = await checkEnvelope(responseXml, profile.getAssertionXml(), config, sp, now);
    const mapping = attributeMappingOf(config.attribute_mapping);
    return {
      email: emailOf(profile, mapping),
      name: mappedValues(attributesOf(profile), mapping.name)[0]?.slice(0, 200),
      inResponseTo: typeof profile.inResponseTo === 'string' ? profile.inResponseTo : null,
      ...envelope,
    };
  } catch (err) {
    throw refusalOf(err);
  }
}
