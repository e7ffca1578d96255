import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import {
  bareCertificate,
  generateIdpKeys,
  idpMetadataWith,
  startTestIdp,
  type TestIdp,
} from '../../testing/saml-idp.ts';

/** IdP metadata by URL (issue 17 point 5): imported when saved, refreshed by hand and before a stale sign-in. */
describe('SSO metadata URL', () => {
  let t: TestApp;
  let idp: TestIdp;
  let server: http.Server;
  let metadataUrl: string;
  let served = { status: 200, body: '' };
  let reads = 0;

  beforeAll(async () => {
    t = await createTestApp({ env: { WARDEN_UNSAFE_WEBHOOK_TARGETS: '1' } });
    idp = await startTestIdp();
    served = { status: 200, body: idp.metadataXml };
    server = http.createServer((_req, res) => {
      reads++;
      res.writeHead(served.status, { 'content-type': 'application/samlmetadata+xml' }).end(served.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    metadataUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metadata`;
  }, 120_000);
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await idp.close();
    await t.close();
  });

  const put = (w: { workspaceId: string; owner: { headers: Record<string, string> } }, body: object) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/workspaces/${w.workspaceId}/sso`,
      headers: w.owner.headers,
      payload: { enabled: true, defaultRole: 'viewer', ssoRequired: false, ...body },
    });
  const refresh = (w: { workspaceId: string; owner: { headers: Record<string, string> } }) =>
    t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${w.workspaceId}/sso/metadata/refresh`,
      headers: w.owner.headers,
    });

  it('imports the metadata when saved, refreshes it by hand, and keeps the settings when a refresh fails', async () => {
    const w = await createTestWorkspace(t.ctx, { plan: 'enterprise' });
    served = { status: 200, body: idp.metadataXml };
    const saved = await put(w, { metadataUrl });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({
      idpEntityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      metadataUrl,
      metadataError: null,
    });
    expect(saved.json().data.metadataFetchedAt).toEqual(expect.any(String));
    expect(saved.json().data.idpCertificates).toHaveLength(1);

    // The IdP publishes a second signing key: a refresh picks it up.
    const next = await generateIdpKeys('next key');
    served = { status: 200, body: idpMetadataWith(idp, [next.certificate, idp.keys.certificate]) };
    const refreshed = await refresh(w);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json().data.idpCertificates).toHaveLength(2);

    // The IdP is down: 409 with the reason, settings unchanged, the error shown.
    served = { status: 503, body: 'down' };
    const failed = await refresh(w);
    expect(failed.statusCode).toBe(409);
    expect(failed.json().error.message).toMatch(/HTTP 503/);
    const after = (
      await t.app.inject({ url: `/api/workspaces/${w.workspaceId}/sso`, headers: w.owner.headers })
    ).json().data;
    expect(after.idpCertificates).toHaveLength(2);
    expect(after.metadataError).toMatch(/HTTP 503/);
  });

  it('reads stale metadata again when a sign-in starts', async () => {
    const w = await createTestWorkspace(t.ctx, { plan: 'enterprise' });
    served = { status: 200, body: idp.metadataXml };
    expect((await put(w, { metadataUrl })).statusCode).toBe(200);
    const next = await generateIdpKeys('rolled key');
    served = { status: 200, body: idpMetadataWith(idp, [next.certificate]) };
    const before = reads;
    // Fresh: the sign-in does not read it.
    expect((await t.app.inject({ url: `/api/sso/saml/${w.workspaceId}/login` })).statusCode).toBe(302);
    expect(reads).toBe(before);
    const realNow = t.ctx.now;
    t.ctx.now = () => realNow() + 25 * 3600 * 1000;
    try {
      expect((await t.app.inject({ url: `/api/sso/saml/${w.workspaceId}/login` })).statusCode).toBe(302);
    } finally {
      t.ctx.now = realNow;
    }
    expect(reads).toBe(before + 1);
    const view = (
      await t.app.inject({ url: `/api/workspaces/${w.workspaceId}/sso`, headers: w.owner.headers })
    ).json().data;
    expect(view.idpCertificates).toEqual([
      expect.stringContaining(bareCertificate(next.certificate).slice(0, 40)),
    ]);
  });

  it('refuses a metadata URL that breaks the URL rules, or answers something else than metadata (400)', async () => {
    const w = await createTestWorkspace(t.ctx, { plan: 'enterprise' });
    served = { status: 200, body: '<not-metadata/>' };
    const bad = await put(w, { metadataUrl });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toBe('body.metadataUrl');
    const metadataHost = await put(w, { metadataUrl: 'http://169.254.169.254/latest/meta-data' });
    expect(metadataHost.statusCode).toBe(400);
    expect(metadataHost.json().error.details[0]).toMatchObject({
      path: 'body.metadataUrl',
      message: expect.stringMatching(/refused/),
    });
    const noUrl = await refresh(w);
    expect(noUrl.statusCode).toBe(409);
  });
});
