// node-saml's own XML helpers (xmldom without external entities, xpath): the parser that also
// reads the SAML responses, so no second XML stack is added.
import { parseDomFromString, xpath } from '@node-saml/node-saml/lib/xml.js';
import { MAX_IDP_CERTIFICATES, normaliseCertificate } from './certificate.ts';

/** What Warden needs from an identity provider's SAML metadata. */
export interface IdpMetadata {
  entityId: string;
  /** SingleSignOnService location for the HTTP-Redirect binding. */
  ssoUrl: string;
  /**
   * Every signing certificate, PEM, in the metadata's order. During a key rollover an IdP lists
   * the new one (often first) while still signing with the old one: all of them are trusted.
   */
  certificates: string[];
}

export const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

const IDP_ENTITY = "//*[local-name()='EntityDescriptor'][*[local-name()='IDPSSODescriptor']]";

/**
 * Read entity id, HTTP-Redirect single sign-on URL and every signing certificate from IdP metadata
 * (an EntityDescriptor, or an EntitiesDescriptor holding exactly one identity provider).
 * Throws an Error whose message says what is missing or wrong.
 */
export async function parseIdpMetadata(xml: string): Promise<IdpMetadata> {
  let doc: Document;
  try {
    doc = await parseDomFromString(xml);
  } catch {
    throw new Error('is not well-formed XML');
  }
  const entities = xpath.selectElements(doc, IDP_ENTITY);
  if (entities.length === 0) throw new Error('has no EntityDescriptor with an IDPSSODescriptor');
  if (entities.length > 1) throw new Error('describes several identity providers; paste the metadata of one');
  const entity = entities[0]!;
  const entityId = entity.getAttribute('entityID')?.trim();
  if (!entityId) throw new Error('has no entityID');
  const descriptor = xpath.selectElements(entity, "./*[local-name()='IDPSSODescriptor']")[0]!;
  const services = xpath.selectElements(descriptor, "./*[local-name()='SingleSignOnService']");
  const redirect = services.find((s) => s.getAttribute('Binding') === REDIRECT_BINDING);
  const ssoUrl = redirect?.getAttribute('Location')?.trim();
  if (!ssoUrl) throw new Error('has no SingleSignOnService for the HTTP-Redirect binding');
  const keys = xpath
    .selectElements(descriptor, "./*[local-name()='KeyDescriptor']")
    .filter((k) => (k.getAttribute('use') ?? 'signing') === 'signing');
  const certTexts = keys
    .flatMap((k) => xpath.selectElements(k, ".//*[local-name()='X509Certificate']"))
    .map((c) => c.textContent ?? '')
    .filter((t) => t.trim() !== '');
  if (certTexts.length === 0) throw new Error('has no signing certificate (KeyDescriptor use="signing")');
  const certificates: string[] = [];
  for (const [index, text] of certTexts.entries()) {
    let pem: string;
    try {
      pem = normaliseCertificate(text);
    } catch (err) {
      const which = certTexts.length > 1 ? `signing certificate ${index + 1}` : 'a signing certificate';
      throw new Error(`has ${which} that ${(err as Error).message}`);
    }
    if (!certificates.includes(pem)) certificates.push(pem);
  }
  if (certificates.length > MAX_IDP_CERTIFICATES) {
    throw new Error(
      `lists ${certificates.length} signing certificates; at most ${MAX_IDP_CERTIFICATES} are kept`,
    );
  }
  return { entityId, ssoUrl, certificates };
}
