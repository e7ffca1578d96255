import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ATTRIBUTE_MAPPING } from '../../sso/attribute-mapping.ts';
import { addTestUser, createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp, testDialects } from '../../testing/context.ts';
import { generateIdpKeys, type IdpKeys } from '../../testing/saml-idp.ts';

const PUBLIC_URL = 'https://warden.example';
const IDP_METADATA = (cert: string) => `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example/entity">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="encryption"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>bm90IGEgY2VydA==</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.example/sso/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example/sso/redirect"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

function bareBase64(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

describe.each(testDialects())('SSO configuration routes on %s', (dialect) => {
  let t: TestApp;
  let w: TestWorkspace;
  let keys: IdpKeys;
  const url = (id: string) => `/api/workspaces/${id}/sso`;
  const valid = () => ({
    enabled: true,
    idpEntityId: 'https://idp.example/entity',
    ssoUrl: 'https://idp.example/sso',
    idpCertificate: keys.certificate,
    defaultRole: 'analyst',
    ssoRequired: false,
  });

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { WARDEN_PUBLIC_URL: PUBLIC_URL } });
    w = await createTestWorkspace(t.ctx, { plan: 'enterprise' });
    keys = await generateIdpKeys();
  });
  afterAll(() => t.close());

  it('answers the unconfigured shape with the SP values to enter at the IdP', async () => {
    const res = await t.app.inject({ url: url(w.workspaceId), headers: w.owner.headers });
    expect(res.statusCode).toBe(200);
    const base = `${PUBLIC_URL}/api/sso/saml/${w.workspaceId}`;
    expect(res.json().data).toEqual({
      workspaceId: w.workspaceId,
      configured: false,
      enabled: false,
      idpEntityId: '',
      ssoUrl: '',
      idpCertificate: '',
      idpCertificates: [],
      defaultRole: 'viewer',
      ssoRequired: false,
      attributeMapping: DEFAULT_ATTRIBUTE_MAPPING,
      updatedAt: null,
      metadataUrl: null,
      metadataFetchedAt: null,
      metadataError: null,
      sp: {
        entityId: `${base}/metadata`,
        acsUrl: `${base}/acs`,
        metadataUrl: `${base}/metadata`,
        loginUrl: `${base}/login`,
      },
    });
  });

  it('saves the fields, normalises a bare base64 certificate to PEM, and GET answers the same', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: url(w.workspaceId),
      headers: w.owner.headers,
      payload: { ...valid(), idpCertificate: bareBase64(keys.certificate), ssoRequired: true },
    });
    expect(put.statusCode).toBe(200);
    const data = put.json().data;
    expect(data).toMatchObject({
      configured: true,
      enabled: true,
      idpEntityId: 'https://idp.example/entity',
      ssoUrl: 'https://idp.example/sso',
      defaultRole: 'analyst',
      ssoRequired: true,
    });
    expect(data.idpCertificate).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(bareBase64(data.idpCertificate)).toBe(bareBase64(keys.certificate));
    expect(Date.parse(data.updatedAt)).toBeGreaterThan(0);
    const get = await t.app.inject({ url: url(w.workspaceId), headers: w.owner.headers });
    expect(get.json().data).toEqual(data);
  });

  it('takes entity id, redirect SSO URL and signing certificate from IdP metadata', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: url(w.workspaceId),
      headers: w.owner.headers,
      payload: {
        enabled: true,
        idpEntityId: 'ignored when metadata is given',
        metadataXml: IDP_METADATA(bareBase64(keys.certificate)),
        defaultRole: 'viewer',
        ssoRequired: false,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      idpEntityId: 'https://idp.example/entity',
      ssoUrl: 'https://idp.example/sso/redirect',
      defaultRole: 'viewer',
    });
    expect(bareBase64(res.json().data.idpCertificate)).toBe(bareBase64(keys.certificate));
  });

  it('may be saved disabled and incomplete', async () => {
    const other = await createTestWorkspace(t.ctx, { plan: 'enterprise' });
    const res = await t.app.inject({
      method: 'PUT',
      url: url(other.workspaceId),
      headers: other.owner.headers,
      payload: { enabled: false, defaultRole: 'viewer', ssoRequired: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ configured: true, enabled: false, idpEntityId: '' });
  });

  describe('validation (400 validation_failed with details)', () => {
    const put = (payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: url(w.workspaceId),
        headers: w.owner.headers,
        payload: payload as object,
      });

    it.each([
      ['a bad certificate', { idpCertificate: 'not a certificate' }, 'body.idpCertificate'],
      [
        'a PEM block that is no certificate',
        { idpCertificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
        'body.idpCertificate',
      ],
      ['an SSO URL that is not http(s)', { ssoUrl: 'ftp://idp.example/sso' }, 'body.ssoUrl'],
      ['unparsable metadata', { metadataXml: '<md:EntityDescriptor' }, 'body.metadataXml'],
      [
        'metadata without an IdP',
        { metadataXml: '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' },
        'body.metadataXml',
      ],
      ['an unknown field', { extra: 1 }, 'body.extra'],
      ['a bad role', { defaultRole: 'admin' }, 'body.defaultRole'],
    ])('refuses %s', async (_name, change, path) => {
      const res = await put({ ...valid(), ...change });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(res.json().error.details.map((d: { path: string }) => d.path)).toContain(path);
    });

    it('names every missing field when enabling', async () => {
      const res = await put({ enabled: true, defaultRole: 'viewer', ssoRequired: false });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([
        {
          path: 'body.idpEntityId',
          message: 'is required when SSO is enabled (or give metadataXml or metadataUrl)',
        },
        {
          path: 'body.ssoUrl',
          message: 'is required when SSO is enabled (or give metadataXml or metadataUrl)',
        },
        {
          path: 'body.idpCertificate',
          message: 'is required when SSO is enabled (or give metadataXml or metadataUrl)',
        },
      ]);
    });

    it('names the missing metadata part', async () => {
      const noRedirect = IDP_METADATA(bareBase64(keys.certificate)).replace(
        /<md:SingleSignOnService Binding="[^"]*HTTP-Redirect"[^>]*\/>/,
        '',
      );
      const res = await put({ ...valid(), metadataXml: noRedirect });
      expect(res.json().error.details[0]).toEqual({
        path: 'body.metadataXml',
        message: 'IdP metadata has no SingleSignOnService for the HTTP-Redirect binding',
      });
    });
  });

  describe('access (SPEC §10: 401 → 404 → 403 → 402 → 400)', () => {
    it('401 without a token', async () => {
      const res = await t.app.inject({ url: url(w.workspaceId) });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
    });

    it('404 for an unknown workspace or one you are not a member of', async () => {
      const foreign = await createTestWorkspace(t.ctx, { plan: 'enterprise' });
      for (const id of ['no-such-workspace', foreign.workspaceId]) {
        const res = await t.app.inject({ url: url(id), headers: w.owner.headers });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      }
    });

    it('403 for analysts and viewers, before the plan and the body are looked at', async () => {
      const free = await createTestWorkspace(t.ctx, { plan: 'free' });
      for (const role of ['analyst', 'viewer'] as const) {
        const user = await addTestUser(t.ctx, { workspaceId: free.workspaceId, role });
        const get = await t.app.inject({ url: url(free.workspaceId), headers: user.headers });
        expect(get.statusCode).toBe(403);
        expect(get.json().error.code).toBe('forbidden');
        const put = await t.app.inject({
          method: 'PUT',
          url: url(free.workspaceId),
          headers: user.headers,
          payload: { bad: true },
        });
        expect(put.statusCode).toBe(403);
      }
    });

    it('402 below Enterprise (before validation), the demo workspace exempt', async () => {
      for (const plan of ['free', 'pro'] as const) {
        const ws = await createTestWorkspace(t.ctx, { plan });
        const get = await t.app.inject({ url: url(ws.workspaceId), headers: ws.owner.headers });
        expect(get.statusCode).toBe(402);
        expect(get.json().error).toMatchObject({ code: 'plan_required' });
        expect(get.json().error.message).toContain('Enterprise');
        const put = await t.app.inject({
          method: 'PUT',
          url: url(ws.workspaceId),
          headers: ws.owner.headers,
          payload: { bad: true },
        });
        expect(put.statusCode).toBe(402);
      }
      const demo = await createTestWorkspace(t.ctx, { plan: 'pro', demo: true });
      const res = await t.app.inject({
        method: 'PUT',
        url: url(demo.workspaceId),
        headers: demo.owner.headers,
        payload: valid(),
      });
      expect(res.statusCode).toBe(200);
    });

    it('is in the OpenAPI document', async () => {
      const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
      expect(Object.keys(doc.paths['/api/workspaces/{id}/sso'])).toEqual(['get', 'put']);
      expect(doc.paths['/api/sso/saml/{workspaceId}/acs'].post).toBeDefined();
    });
  });
});
