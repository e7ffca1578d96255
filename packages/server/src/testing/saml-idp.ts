import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import * as xmllint from '@authenio/samlify-node-xmllint';
import * as samlify from 'samlify';
import { generate } from 'selfsigned';
import { REDIRECT_BINDING } from '../sso/idp-metadata.ts';
import { EMAIL_NAME_ID_FORMAT } from '../sso/saml-client.ts';

/**
 * A real SAML 2.0 identity provider for tests, in process: samlify signs the responses with a
 * key pair made by selfsigned, and a loopback HTTP server plays the IdP's sign-in page. It
 * receives the SP's AuthnRequest (HTTP-Redirect), treats `idp.user` as already signed in, and
 * answers the usual auto-submitting HTML form that POSTs the signed SAMLResponse to the ACS.
 * `createResponse` builds responses directly, with overrides for every refusal a test needs.
 */

samlify.setSchemaValidator(xmllint);

let schemaValidatorLoaded: Promise<void> | undefined;

/**
 * The schema validator (libxml2 compiled to JavaScript) takes seconds to load the SAML schemas
 * the first time it runs in a process. Tests that send AuthnRequests to the IdP call this in a
 * hook, so the load does not count against a test's timeout.
 */
export function loadSchemaValidator(): Promise<void> {
  schemaValidatorLoaded ??= xmllint
    .validate(
      '<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_warm" Version="2.0" IssueInstant="2020-01-01T00:00:00Z"/>',
    )
    .then(() => undefined);
  return schemaValidatorLoaded;
}

const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

export interface IdpKeys {
  privateKey: string;
  /** PEM */
  certificate: string;
}

/** A fresh RSA-2048 key pair and self-signed certificate (SHA-256). */
export async function generateIdpKeys(commonName = 'Warden test IdP'): Promise<IdpKeys> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    algorithm: 'sha256',
  });
  return { privateKey: pems.private, certificate: pems.cert };
}

/** The service provider as the IdP knows it (registered by its admin). */
export interface SpTarget {
  entityId: string;
  acsUrl: string;
}

/** Everything a test may bend in a response; by default a valid response for `email`. */
export interface ResponseOptions {
  email?: string;
  /** Put the e-mail in an `email` attribute and use this NameID (format unspecified) instead. */
  opaqueNameId?: string;
  /** The attribute statement instead of the `email` attribute (names as the IdP sends them). */
  attributes?: Record<string, string[]>;
  inResponseTo?: string;
  audience?: string;
  recipient?: string;
  destination?: string;
  issuer?: string;
  issueInstant?: Date;
  notBefore?: Date;
  notOnOrAfter?: Date;
  assertionId?: string;
  /** Sign with these keys instead of the IdP's own (an untrusted signer). */
  signingKeys?: IdpKeys;
  /** Change the signed assertion afterwards (the e-mail): the signature no longer matches. */
  tamper?: boolean;
  /** Sign the whole response as well as the assertion. */
  signResponse?: boolean;
}

export interface ReceivedAuthnRequest {
  id: string;
  issuer: string;
  relayState: string | undefined;
}

export interface TestIdp {
  entityId: string;
  baseUrl: string;
  /** Single sign-on URL (HTTP-Redirect binding). */
  ssoUrl: string;
  keys: IdpKeys;
  /** The IdP's SAML metadata XML. */
  metadataXml: string;
  /** Who is "signed in" at the IdP: the next AuthnRequest is answered for this e-mail. */
  user: { email: string };
  /** AuthnRequests received over HTTP, oldest first. */
  requests: ReceivedAuthnRequest[];
  /** Register a service provider (the IdP admin's job); unknown SPs are refused. */
  trust(sp: SpTarget): void;
  /** A base64 SAMLResponse for `sp`. */
  createResponse(sp: SpTarget, options?: ResponseOptions): Promise<string>;
  close(): Promise<void>;
}

function xmlEscape(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function newId(): string {
  return `_${randomBytes(16).toString('hex')}`;
}

function responseXml(entityId: string, sp: SpTarget, o: ResponseOptions, id: string): string {
  const now = o.issueInstant ?? new Date();
  const notBefore = o.notBefore ?? new Date(now.getTime() - 30_000);
  const notOnOrAfter = o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
  const email = o.email ?? 'user@example.test';
  const issuer = xmlEscape(o.issuer ?? entityId);
  const inResponseTo = o.inResponseTo ? ` InResponseTo="${xmlEscape(o.inResponseTo)}"` : '';
  const nameId = o.opaqueNameId
    ? `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${xmlEscape(o.opaqueNameId)}</saml:NameID>`
    : `<saml:NameID Format="${EMAIL_NAME_ID_FORMAT}">${xmlEscape(email)}</saml:NameID>`;
  const attributeList =
    o.attributes ?? (o.opaqueNameId ? { email: [email] } : ({} as Record<string, string[]>));
  const attributes =
    Object.keys(attributeList).length === 0
      ? ''
      : `<saml:AttributeStatement>${Object.entries(attributeList)
          .map(
            ([name, values]) =>
              `<saml:Attribute Name="${xmlEscape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:${name.includes(':') ? 'uri' : 'basic'}">` +
              values
                .map((v) => `<saml:AttributeValue xsi:type="xs:string">${xmlEscape(v)}</saml:AttributeValue>`)
                .join('') +
              '</saml:Attribute>',
          )
          .join('')}</saml:AttributeStatement>`;
  return (
    '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ' +
    `ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${xmlEscape(o.destination ?? sp.acsUrl)}"${inResponseTo}>` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
    '<saml:Assertion xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
    `ID="${xmlEscape(o.assertionId ?? newId())}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<saml:Subject>${nameId}<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter.toISOString()}" Recipient="${xmlEscape(o.recipient ?? sp.acsUrl)}"${inResponseTo}/>` +
    '</saml:SubjectConfirmation></saml:Subject>' +
    `<saml:Conditions NotBefore="${notBefore.toISOString()}" NotOnOrAfter="${notOnOrAfter.toISOString()}">` +
    `<saml:AudienceRestriction><saml:Audience>${xmlEscape(o.audience ?? sp.entityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${newId()}"><saml:AuthnContext>` +
    '<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>' +
    `</saml:AuthnContext></saml:AuthnStatement>${attributes}</saml:Assertion></samlp:Response>`
  );
}

function identityProvider(entityId: string, ssoUrl: string, keys: IdpKeys) {
  return samlify.IdentityProvider({
    entityID: entityId,
    privateKey: keys.privateKey,
    signingCert: keys.certificate,
    nameIDFormat: [EMAIL_NAME_ID_FORMAT],
    singleSignOnService: [{ Binding: REDIRECT_BINDING, Location: ssoUrl }],
    singleLogoutService: [{ Binding: REDIRECT_BINDING, Location: ssoUrl.replace(/\/sso$/, '/slo') }],
    // Tells samlify to hand its template to our customTagReplacement (we write the whole XML).
    loginResponseTemplate: { context: '{ID}', attributes: [] },
  });
}

function serviceProvider(sp: SpTarget, signResponse: boolean) {
  return samlify.ServiceProvider({
    entityID: sp.entityId,
    assertionConsumerService: [{ Binding: POST, Location: sp.acsUrl }],
    wantAssertionsSigned: true,
    wantMessageSigned: signResponse,
  });
}

/** The issuer of a deflated, base64 AuthnRequest (to find which registered SP sent it). */
function requestIssuer(samlRequest: string): string | undefined {
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  return /<(?:\w+:)?Issuer[^>]*>([^<]+)<\/(?:\w+:)?Issuer>/.exec(xml)?.[1]?.trim();
}

function autoPostForm(acsUrl: string, samlResponse: string, relayState: string | undefined): string {
  const relay = relayState ? `<input type="hidden" name="RelayState" value="${xmlEscape(relayState)}">` : '';
  return (
    '<!doctype html><html><head><title>Signing in…</title></head><body>' +
    `<form method="post" action="${xmlEscape(acsUrl)}">` +
    `<input type="hidden" name="SAMLResponse" value="${xmlEscape(samlResponse)}">${relay}` +
    '<noscript><button type="submit">Continue</button></noscript></form>' +
    '<script>document.forms[0].submit()</script></body></html>'
  );
}

/** Start the IdP on a loopback port. */
export async function startTestIdp(options: { keys?: IdpKeys } = {}): Promise<TestIdp> {
  const keys = options.keys ?? (await generateIdpKeys());
  const trusted = new Map<string, SpTarget>();
  const requests: ReceivedAuthnRequest[] = [];
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${baseUrl}/metadata`;
  const ssoUrl = `${baseUrl}/sso`;
  const idp = identityProvider(entityId, ssoUrl, keys);

  async function createResponse(sp: SpTarget, o: ResponseOptions = {}): Promise<string> {
    const signer = o.signingKeys ? identityProvider(entityId, ssoUrl, o.signingKeys) : idp;
    const id = newId();
    const xml = responseXml(entityId, sp, o, id);
    const { context } = await signer.createLoginResponse(
      serviceProvider(sp, o.signResponse ?? false),
      { extract: {} },
      'post',
      { email: o.email ?? 'user@example.test' },
      { customTagReplacement: () => ({ id, context: xml }) },
    );
    if (!o.tamper) return context;
    const signed = Buffer.from(context, 'base64').toString('utf8');
    const email = xmlEscape(o.email ?? 'user@example.test');
    const forged = signed.split(email).join('intruder@evil.test');
    if (forged === signed) throw new Error('tamper: the e-mail was not found in the response');
    return Buffer.from(forged, 'utf8').toString('base64');
  }

  const testIdp: TestIdp = {
    entityId,
    baseUrl,
    ssoUrl,
    keys,
    metadataXml: idp.getMetadata(),
    user: { email: 'user@example.test' },
    requests,
    trust(sp) {
      trusted.set(sp.entityId, sp);
    },
    createResponse,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  server.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', baseUrl);
      if (req.method === 'GET' && url.pathname === '/metadata') {
        res.writeHead(200, { 'content-type': 'application/xml' }).end(testIdp.metadataXml);
        return;
      }
      if (req.method !== 'GET' || url.pathname !== '/sso') {
        res.writeHead(404).end('not found');
        return;
      }
      const samlRequest = url.searchParams.get('SAMLRequest');
      const relayState = url.searchParams.get('RelayState') ?? undefined;
      const sp = samlRequest ? trusted.get(requestIssuer(samlRequest) ?? '') : undefined;
      if (!samlRequest || !sp) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end('unknown service provider');
        return;
      }
      // Parse and schema-validate the AuthnRequest like a real IdP.
      const parsed = await idp.parseLoginRequest(serviceProvider(sp, false), 'redirect', {
        query: Object.fromEntries(url.searchParams),
      });
      const request = parsed.extract.request as Record<string, string>;
      requests.push({ id: request.id!, issuer: String(parsed.extract.issuer), relayState });
      const samlResponse = await createResponse(sp, {
        email: testIdp.user.email,
        inResponseTo: request.id!,
      });
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(autoPostForm(sp.acsUrl, samlResponse, relayState));
    })().catch((err: unknown) => {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`IdP error: ${String(err)}`);
    });
  });

  return testIdp;
}

export const bareCertificate = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

/** IdP metadata of `idp` listing `certificates` (PEM) as its signing keys, in this order. */
export function idpMetadataWith(idp: Pick<TestIdp, 'entityId' | 'ssoUrl'>, certificates: string[]): string {
  const keys = certificates
    .map(
      (pem) =>
        '<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data>' +
        `<ds:X509Certificate>${bareCertificate(pem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    )
    .join('');
  return (
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${idp.entityId}">` +
    `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keys}` +
    '<md:KeyDescriptor use="encryption"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data>' +
    `<ds:X509Certificate>${bareCertificate(certificates[0] ?? '')}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${idp.ssoUrl}"/>` +
    '</md:IDPSSODescriptor></md:EntityDescriptor>'
  );
}
