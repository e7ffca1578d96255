import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestContext, type TestApp, testAppOf, testDialects } from '../../testing/context.ts';
import { formOf, fragmentOf } from '../../testing/saml-browser.ts';
import {
  bareCertificate,
  generateIdpKeys,
  type IdpKeys,
  idpMetadataWith,
  loadSchemaValidator,
  type SpTarget,
  startTestIdp,
  type TestIdp,
} from '../../testing/saml-idp.ts';
import { findUserByEmail } from '../../workspace/users.ts';
import { buildApp } from '../app.ts';

/**
 * What real identity providers need beyond the basic round trip (issue 17 point 5): a signing-key
 * rollover, a refused response that must not cancel the genuine one, refusals shown in the browser.
 */

describe.each(testDialects())('SAML interop on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let idp: TestIdp;
  let next: IdpKeys;

  const samlUrl = (workspaceId: string, leaf: string) => `${base}/api/sso/saml/${workspaceId}/${leaf}`;
  const postAcs = (workspaceId: string, fields: Record<string, string>, accept?: string) =>
    fetch(samlUrl(workspaceId, 'acs'), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(accept ? { accept } : {}),
      },
      body: new URLSearchParams(fields),
      redirect: 'manual',
    });

  async function configure(workspace: TestWorkspace, body: Record<string, unknown>) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/workspaces/${workspace.workspaceId}/sso`,
      headers: workspace.owner.headers,
      payload: { enabled: true, defaultRole: 'viewer', ssoRequired: false, ...body },
    });
    if (res.statusCode === 200) idp.trust(res.json().data.sp);
    return res;
  }

  async function enterpriseWith(body: Record<string, unknown>): Promise<[TestWorkspace, SpTarget]> {
    const w = await createTestWorkspace(t.ctx, { plan: 'enterprise' });
    const res = await configure(w, body);
    expect(res.statusCode, res.body).toBe(200);
    return [w, res.json().data.sp];
  }

  beforeAll(async () => {
    const ctx = await createTestContext({ dialect });
    const app = await buildApp(ctx);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    ctx.config.publicUrl = base;
    t = testAppOf(app, ctx);
    idp = await startTestIdp();
    next = await generateIdpKeys('Warden test IdP, next key');
    await loadSchemaValidator();
  }, 120_000);
  afterAll(async () => {
    await idp?.close();
    await t?.close();
  });

  describe('signing-key rollover', () => {
    it('keeps every signing certificate of the metadata (new one first) and accepts either signature', async () => {
      const [w, sp] = await enterpriseWith({
        metadataXml: idpMetadataWith(idp, [next.certificate, idp.keys.certificate]),
      });
      const view = (
        await configure(w, { metadataXml: idpMetadataWith(idp, [next.certificate, idp.keys.certificate]) })
      ).json().data;
      expect(view.idpCertificates.map(bareCertificate)).toEqual([
        bareCertificate(next.certificate),
        bareCertificate(idp.keys.certificate),
      ]);
      expect(view.idpCertificate).toBe(view.idpCertificates.join(''));
      // Still signing with the old key, then with the new one: both sign in.
      const old = await postAcs(w.workspaceId, {
        SAMLResponse: await idp.createResponse(sp, { email: 'roll-old@example.test' }),
      });
      expect(old.status).toBe(303);
      const rolled = await postAcs(w.workspaceId, {
        SAMLResponse: await idp.createResponse(sp, { email: 'roll-new@example.test', signingKeys: next }),
      });
      expect(rolled.status).toBe(303);
      // A third key is still refused.
      const other = await postAcs(w.workspaceId, {
        SAMLResponse: await idp.createResponse(sp, { signingKeys: await generateIdpKeys('Impostor') }),
      });
      expect(other.status).toBe(401);
    });

    it('accepts several pasted PEM blocks, and refuses a bad one naming it', async () => {
      const [w, sp] = await enterpriseWith({
        idpEntityId: idp.entityId,
        ssoUrl: idp.ssoUrl,
        idpCertificate: `${idp.keys.certificate}\n${next.certificate}`,
      });
      const res = await postAcs(w.workspaceId, {
        SAMLResponse: await idp.createResponse(sp, { email: 'pasted@example.test', signingKeys: next }),
      });
      expect(res.status).toBe(303);
      const bad = await configure(w, {
        idpEntityId: idp.entityId,
        ssoUrl: idp.ssoUrl,
        idpCertificate: `${idp.keys.certificate}\n-----BEGIN CERTIFICATE-----\nQUJD\n-----END CERTIFICATE-----`,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details).toEqual([
        {
          path: 'body.idpCertificate',
          message: 'certificate (certificate 2) is not a valid X.509 certificate',
        },
      ]);
    });
  });

  it('a refused response does not use up the sign-in request: the genuine one still signs in', {
    timeout: 60_000,
  }, async () => {
    const [w, sp] = await enterpriseWith({ metadataXml: idp.metadataXml });
    idp.user.email = 'genuine@example.test';
    const login = await fetch(samlUrl(w.workspaceId, 'login'), { redirect: 'manual' });
    const form = formOf(await (await fetch(login.headers.get('location')!)).text());
    const requestId = idp.requests.at(-1)!.id;
    // An attacker who saw the request id posts a tampered answer to it first.
    const forged = await idp.createResponse(sp, {
      email: 'genuine@example.test',
      inResponseTo: requestId,
      tamper: true,
    });
    const refused = await postAcs(w.workspaceId, { SAMLResponse: forged });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toBe('SAML response refused: invalid signature');
    const genuine = await postAcs(w.workspaceId, form.fields);
    expect(genuine.status).toBe(303);
    expect(fragmentOf(genuine.headers.get('location')!).accessToken).toBeTruthy();
    // Once answered, another valid response to the same request is refused.
    const second = await postAcs(w.workspaceId, {
      SAMLResponse: await idp.createResponse(sp, { email: 'genuine@example.test', inResponseTo: requestId }),
    });
    expect(second.status).toBe(401);
    expect((await second.json()).error.message).toContain('(InResponseTo)');
  });

  it('a browser (Accept: text/html) is sent back to the dashboard with the reason, not JSON', async () => {
    const [w, sp] = await enterpriseWith({ metadataXml: idp.metadataXml });
    const html = 'text/html,application/xhtml+xml,*/*;q=0.8';
    const res = await postAcs(
      w.workspaceId,
      { SAMLResponse: await idp.createResponse(sp, { tamper: true }) },
      html,
    );
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location.startsWith('/dashboard/sso-callback#')).toBe(true);
    expect(fragmentOf(location)).toEqual({
      error: 'SAML response refused: invalid signature',
      code: 'unauthorized',
    });
    expect(await findUserByEmail(t.ctx.database.db, 'intruder@evil.test')).toBeUndefined();
    // Not set up, or no SAMLResponse: the same way back, with that reason.
    const unknown = await postAcs('no-such-workspace', { SAMLResponse: 'x' }, html);
    expect(fragmentOf(unknown.headers.get('location')!).code).toBe('not_found');
    const missing = await postAcs(w.workspaceId, { RelayState: 'x' }, html);
    expect(fragmentOf(missing.headers.get('location')!).code).toBe('validation_failed');
  });

  it('recognises urn:mace:dir:attribute-def:mail (SimpleSAMLphp) as the e-mail attribute', async () => {
    const [w, sp] = await enterpriseWith({ metadataXml: idp.metadataXml });
    const res = await postAcs(w.workspaceId, {
      SAMLResponse: await idp.createResponse(sp, {
        opaqueNameId: 'opaque-1',
        email: 'mace@example.test',
        attributes: { 'urn:mace:dir:attribute-def:mail': ['mace@example.test'] },
      }),
    });
    expect(res.status).toBe(303);
    expect(await findUserByEmail(t.ctx.database.db, 'mace@example.test')).toBeDefined();
  });

  describe('attribute mapping', () => {
    it('reads e-mail and name from the configured attributes; the defaults no longer apply', async () => {
      const [w, sp] = await enterpriseWith({
        metadataXml: idp.metadataXml,
        attributeMapping: { email: ['urn:oid:1.3.6.1.4.1.5923.1.1.1.6'], name: ['givenName'] },
      });
      const view = (
        await t.app.inject({ url: `/api/workspaces/${w.workspaceId}/sso`, headers: w.owner.headers })
      ).json().data;
      expect(view.attributeMapping).toEqual({
        email: ['urn:oid:1.3.6.1.4.1.5923.1.1.1.6'],
        name: ['givenName'],
      });
      const mapped = await postAcs(w.workspaceId, {
        SAMLResponse: await idp.createResponse(sp, {
          opaqueNameId: 'opaque-2',
          attributes: {
            'urn:oid:1.3.6.1.4.1.5923.1.1.1.6': ['Mapped@Example.test'],
            givenName: ['Mapped Person'],
            mail: ['ignored@example.test'],
          },
        }),
      });
      expect(mapped.status).toBe(303);
      expect((await findUserByEmail(t.ctx.database.db, 'mapped@example.test'))?.name).toBe('Mapped Person');
      expect(await findUserByEmail(t.ctx.database.db, 'ignored@example.test')).toBeUndefined();
      const unmapped = await postAcs(w.workspaceId, {
        SAMLResponse: await idp.createResponse(sp, {
          opaqueNameId: 'opaque-3',
          attributes: { mail: ['only-mail@example.test'] },
        }),
      });
      expect(unmapped.status).toBe(401);
      expect((await unmapped.json()).error.message).toContain('no e-mail address in the assertion');
    });

    it.each([
      [{ email: [] }, 'body.attributeMapping.email', 'must list 1 to 10 attribute names'],
      [{ email: ['mail', 'a b'] }, 'body.attributeMapping.email.1', 'without spaces'],
      [{ name: ['cn', 'CN'] }, 'body.attributeMapping.name', 'lists an attribute name twice'],
    ])('refuses %j', async (attributeMapping, path, message) => {
      const w = await createTestWorkspace(t.ctx, { plan: 'enterprise' });
      const res = await configure(w, { metadataXml: idp.metadataXml, attributeMapping });
      expect(res.statusCode).toBe(400);
      const [detail] = res.json().error.details;
      expect(detail.path).toBe(path);
      expect(detail.message).toContain(message);
    });
  });
});
