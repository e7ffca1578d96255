// node-saml's own XML helpers (xmldom without external entities, xpath): the parser that also
// reads the SAML responses, so no second XML stack is added.
import { parseDomFromString, xpath } from '@node-saml/node-saml/lib/xml.js';
import { normaliseCertificate } from './certificate.ts';

/** What Warden needs from an identity provider's SAML metadata. */
export interface IdpMetadata {
  entityId: string;
  /** SingleSignOnService location for the HTTP-Redirect binding. */
  ssoUrl: string;
  /** The signing certificate, PEM. */
  certificate: string;
}

export const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

const IDP_ENTITY = "//*[local-name()='EntityDescriptor'][*[local-name()='IDPSSODescriptor']]";

/**
 * Read entity id, HTTP-Redirect single sign-on URL and signing certificate from IdP metadata
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
  const certText = keys
    .flatMap((k) => xpath.selectElements(k, ".//*[local-name()='X509Certificate']"))
    .map((c) => c.textContent ?? '')
    .find((t) => t.trim() !== '');
  if (!certText) throw new Error('has no signing certificate (KeyDescriptor use="signing")');
  let certificate: string;
  try {
    certificate = normaliseCertificate(certText);
  } catch (err) {
    throw new Error(`has a signing certificate that ${(err as Error).message}`);
  }
  return { entityId, ssoUrl, certificate };
}
