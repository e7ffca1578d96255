import { Writable } from 'node:stream';
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServices } from '../../services.ts';
import { MemoryHotState } from '../../state/memory.ts';
import { addTestUser, createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestContext, type TestApp, testAppOf, testDialects } from '../../testing/context.ts';
import { formOf, fragmentOf } from '../../testing/saml-browser.ts';
import {
  generateIdpKeys,
  loadSchemaValidator,
  type SpTarget,
  startTestIdp,
  type TestIdp,
} from '../../testing/saml-idp.ts';
import { findUserByEmail } from '../../workspace/users.ts';
import { findMembership, setPlan } from '../../workspace/workspaces.ts';
import { buildApp } from '../app.ts';

/** The SAML round trip over real HTTP: Warden listens on loopback, the test IdP on another port. */

describe.each(testDialects())('SAML single sign-on on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let idp: TestIdp;
  let w: TestWorkspace;
  let sp: SpTarget;
  const logLines: string[] = [];

  const samlUrl = (workspaceId: string, leaf: string) => `${base}/api/sso/saml/${workspaceId}/${leaf}`;
  const postAcs = (workspaceId: string, fields: Record<string, string>) =>
    fetch(samlUrl(workspaceId, 'acs'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
      redirect: 'manual',
    });
  const api = (path: string, init: RequestInit & { token?: string } = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: {
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
    });
  /** Configure SSO with the IdP's metadata, and register the SP at the IdP (as both admins would). */
  async function configure(workspace: TestWorkspace, body: Record<string, unknown>) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/workspaces/${workspace.workspaceId}/sso`,
      headers: workspace.owner.headers,
      payload: {
        enabled: true,
        metadataXml: idp.metadataXml,
        defaultRole: 'viewer',
        ssoRequired: false,
        ...body,
      },
    });
    if (res.statusCode === 200) idp.trust(res.json().data.sp);
    return res;
  }

  /** SP-initiated sign-in the way a browser does it; answers the ACS response. */
  async function signIn(workspaceId: string): Promise<Response> {
    const login = await fetch(samlUrl(workspaceId, 'login'), { redirect: 'manual' });
    expect(login.status).toBe(302);
    const page = await fetch(login.headers.get('location')!, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const form = formOf(await page.text());
    return fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form.fields),
      redirect: 'manual',
    });
  }

  beforeAll(async () => {
    const ctx = await createTestContext({ dialect, env: { WARDEN_LOG_LEVEL: 'trace' } });
    // Every log line, to check that no SAMLResponse or token is ever written.
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    ctx.logger = pino({ level: 'trace' }, sink);
    const app = await buildApp(ctx);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    // The port is known only now; SP URLs are derived from the config on every request.
    ctx.config.publicUrl = base;
    t = testAppOf(app, ctx);
    idp = await startTestIdp();
    w = await createTestWorkspace(t.ctx, { plan: 'enterprise', name: 'Acme' });
    const configured = await configure(w, { defaultRole: 'analyst' });
    expect(configured.statusCode).toBe(200);
    sp = { entityId: configured.json().data.sp.entityId, acsUrl: configured.json().data.sp.acsUrl };
    await loadSchemaValidator();
  }, 120_000);
  afterAll(async () => {
    await idp?.close();
    await t?.close();
  });

  it('signs in end to end: login → IdP → ACS → 303 with a session scoped to the workspace', {
    timeout: 60_000,
  }, async () => {
    idp.user.email = 'New.Person@Example.test';
    const acs = await signIn(w.workspaceId);
    expect(acs.status).toBe(303);
    const location = acs.headers.get('location')!;
    expect(location.startsWith('/dashboard/sso-callback#accessToken=')).toBe(true);
    expect(acs.headers.get('cache-control')).toBe('no-store');
    const fragment = fragmentOf(location);
    expect(Object.keys(fragment)).toEqual(['accessToken', 'refreshToken', 'expiresIn', 'workspaceId']);
    expect(fragment).toMatchObject({ expiresIn: '3600', workspaceId: w.workspaceId });
    expect(fragment.refreshToken).toMatch(/^wrt_/);
    // The AuthnRequest went through the IdP; the response answered it.
    expect(idp.requests.at(-1)?.issuer).toBe(sp.entityId);

    const me = await api('/api/auth/me', { token: fragment.accessToken! });
    expect(me.status).toBe(200);
    const user = (await me.json()).data;
    expect(user.email).toBe('new.person@example.test');
    expect(user.memberships).toEqual([
      { workspaceId: w.workspaceId, workspaceName: 'Acme', role: 'analyst', plan: 'enterprise' },
    ]);
    const workspaces = await (await api('/api/workspaces', { token: fragment.accessToken! })).json();
    expect(workspaces.data.map((x: { id: string }) => x.id)).toEqual([w.workspaceId]);

    // The SAMLResponse and the tokens never reach the logs.
    const logs = logLines.join('');
    expect(logs).toContain('signed in with SSO');
    expect(logs).not.toContain(fragment.accessToken);
    expect(logs).not.toContain(fragment.refreshToken);
    expect(logs).not.toContain('SAMLResponse=');
    expect(logs).not.toContain('PHNhbWxwOlJlc3BvbnNl'); // base64 of "<samlp:Response"
  });

  describe('just-in-time provisioning', () => {
    it('creates a new user without a password, with the default role', async () => {
      idp.user.email = 'jit-new@example.test';
      expect((await signIn(w.workspaceId)).status).toBe(303);
      const user = await findUserByEmail(t.ctx.database.db, 'jit-new@example.test');
      expect(user?.password_hash).toBeNull();
      expect((await findMembership(t.ctx.database.db, w.workspaceId, user!.id))?.role).toBe('analyst');
    });

    it('adds an existing account that is not a member, with the default role', async () => {
      const elsewhere = await createTestWorkspace(t.ctx, { plan: 'pro' });
      idp.user.email = elsewhere.owner.email;
      const acs = await signIn(w.workspaceId);
      expect(acs.status).toBe(303);
      expect((await findMembership(t.ctx.database.db, w.workspaceId, elsewhere.owner.userId))?.role).toBe(
        'analyst',
      );
      // The scoped session sees only this workspace, not the user's own one.
      const me = await api('/api/auth/me', { token: fragmentOf(acs.headers.get('location')!).accessToken! });
      expect((await me.json()).data.memberships.map((m: { workspaceId: string }) => m.workspaceId)).toEqual([
        w.workspaceId,
      ]);
    });

    it('keeps the role of an existing member', async () => {
      idp.user.email = w.owner.email;
      expect((await signIn(w.workspaceId)).status).toBe(303);
      expect((await findMembership(t.ctx.database.db, w.workspaceId, w.owner.userId))?.role).toBe('owner');
    });

    it('reads the e-mail from an attribute when the NameID is opaque', async () => {
      const res = await postAcs(w.workspaceId, {
        SAMLResponse: await idp.createResponse(sp, {
          email: 'by-attribute@example.test',
          opaqueNameId: 'u-123',
        }),
      });
      expect(res.status).toBe(303);
      expect(await findUserByEmail(t.ctx.database.db, 'by-attribute@example.test')).toBeDefined();
    });
  });

  describe('refusals: 401 unauthorized naming the reason', () => {
    async function refusedWith(samlResponse: string, reason: string): Promise<void> {
      const res = await postAcs(w.workspaceId, { SAMLResponse: samlResponse });
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body.success).toBe(false);
      expect(body.error).toEqual({ code: 'unauthorized', message: `SAML response refused: ${reason}` });
    }

    it('a tampered assertion (invalid signature), and nobody is provisioned', async () => {
      await refusedWith(
        await idp.createResponse(sp, { email: 'victim@example.test', tamper: true }),
        'invalid signature',
      );
      expect(await findUserByEmail(t.ctx.database.db, 'intruder@evil.test')).toBeUndefined();
    });

    it('a signature by another key than the configured certificate', async () => {
      const signingKeys = await generateIdpKeys('Impostor');
      await refusedWith(await idp.createResponse(sp, { signingKeys }), 'invalid signature');
    });

    it('another audience', async () => {
      await refusedWith(
        await idp.createResponse(sp, { audience: 'https://other.example/sp' }),
        'audience mismatch',
      );
    });

    it('another recipient', async () => {
      await refusedWith(
        await idp.createResponse(sp, { recipient: 'https://other.example/acs' }),
        'recipient mismatch',
      );
    });

    it('another destination', async () => {
      await refusedWith(
        await idp.createResponse(sp, { destination: 'https://other.example/acs' }),
        'destination mismatch',
      );
    });

    it('another issuer', async () => {
      await refusedWith(
        await idp.createResponse(sp, { issuer: 'https://other.example/idp' }),
        'issuer mismatch',
      );
    });

    it('an expired assertion', async () => {
      const past = Date.now() - 30 * 60_000;
      await refusedWith(
        await idp.createResponse(sp, {
          issueInstant: new Date(past),
          notBefore: new Date(past),
          notOnOrAfter: new Date(past + 5 * 60_000),
        }),
        'assertion expired',
      );
    });

    it('an assertion not yet valid (beyond the clock skew)', async () => {
      const future = Date.now() + 30 * 60_000;
      await refusedWith(
        await idp.createResponse(sp, {
          issueInstant: new Date(future),
          notBefore: new Date(future),
          notOnOrAfter: new Date(future + 5 * 60_000),
        }),
        'assertion not yet valid',
      );
    });

    it('a replayed assertion, also in another process sharing the database', async () => {
      const samlResponse = await idp.createResponse(sp, { email: 'replay@example.test' });
      expect((await postAcs(w.workspaceId, { SAMLResponse: samlResponse })).status).toBe(303);
      await refusedWith(samlResponse, 'assertion already used');
      const { services: _shared, ...base } = t.ctx;
      const other = await buildApp(
        withServices({ ...base, hotState: new MemoryHotState(), metrics: new Registry() }),
      );
      try {
        const res = await other.inject({
          method: 'POST',
          url: `/api/sso/saml/${w.workspaceId}/acs`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
        });
        expect(res.statusCode).toBe(401);
        expect(res.json().error.message).toBe('SAML response refused: assertion already used');
      } finally {
        await other.close();
      }
    });

    it('a response to a request this server never sent (InResponseTo)', async () => {
      await refusedWith(
        await idp.createResponse(sp, { inResponseTo: '_not-a-request-of-ours' }),
        'it does not answer a sign-in request of this server (InResponseTo)',
      );
    });

    it('a response whose SP-initiated request was already answered', async () => {
      const login = await fetch(samlUrl(w.workspaceId, 'login'), { redirect: 'manual' });
      const form = formOf(await (await fetch(login.headers.get('location')!)).text());
      expect((await postAcs(w.workspaceId, form.fields)).status).toBe(303);
      const again = await postAcs(w.workspaceId, form.fields);
      expect(again.status).toBe(401);
      expect((await again.json()).error.message).toMatch(/^SAML response refused: /);
    });

    it('garbage', async () => {
      await refusedWith(Buffer.from('<nope/>').toString('base64'), 'malformed response');
    });

    it('400 without SAMLResponse, 404 for an unknown workspace', async () => {
      const missing = await postAcs(w.workspaceId, { RelayState: 'x' });
      expect(missing.status).toBe(400);
      expect((await missing.json()).error.code).toBe('validation_failed');
      const unknown = await postAcs('no-such-workspace', { SAMLResponse: 'x' });
      expect(unknown.status).toBe(404);
    });
  });

  describe('login and metadata routes', () => {
    it('login redirects to the IdP with a deflated AuthnRequest (HTTP-Redirect)', async () => {
      const res = await fetch(samlUrl(w.workspaceId, 'login'), { redirect: 'manual' });
      expect(res.status).toBe(302);
      const target = new URL(res.headers.get('location')!);
      expect(`${target.origin}${target.pathname}`).toBe(idp.ssoUrl);
      expect(target.searchParams.get('SAMLRequest')).toBeTruthy();
    });

    it('login answers 404 alike for unknown workspaces and those without enabled SSO', async () => {
      const unconfigured = await createTestWorkspace(t.ctx, { plan: 'enterprise' });
      const disabled = await createTestWorkspace(t.ctx, { plan: 'enterprise' });
      expect((await configure(disabled, { enabled: false })).statusCode).toBe(200);
      const bodies = [];
      for (const id of ['no-such-workspace', unconfigured.workspaceId, disabled.workspaceId]) {
        const res = await fetch(samlUrl(id, 'login'), { redirect: 'manual' });
        expect(res.status).toBe(404);
        bodies.push((await res.json()).error);
      }
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    });

    it('login and ACS answer 402 once the plan no longer includes SSO', async () => {
      const downgraded = await createTestWorkspace(t.ctx, { plan: 'enterprise' });
      expect((await configure(downgraded, {})).statusCode).toBe(200);
      await setPlan(t.ctx.database.db, downgraded.workspaceId, 'pro', Date.now(), t.ctx.services.siteKeys);
      const login = await fetch(samlUrl(downgraded.workspaceId, 'login'), { redirect: 'manual' });
      expect(login.status).toBe(402);
      expect((await login.json()).error.code).toBe('plan_required');
      expect((await postAcs(downgraded.workspaceId, { SAMLResponse: 'x' })).status).toBe(402);
    });

    it('serves SP metadata with entity id, ACS and the e-mail NameID format', async () => {
      const res = await fetch(samlUrl(w.workspaceId, 'metadata'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/xml');
      const xml = await res.text();
      expect(xml).toContain(`entityID="${sp.entityId}"`);
      expect(xml).toContain(`Location="${sp.acsUrl}"`);
      expect(xml).toContain('WantAssertionsSigned="true"');
      expect(xml).toContain('nameid-format:emailAddress');
      expect((await fetch(samlUrl('no-such-workspace', 'metadata'))).status).toBe(404);
    });

    it('form bodies are accepted by the ACS only: every other route still answers 415', async () => {
      const res = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=a%40b.test&password=x',
      });
      expect(res.status).toBe(415);
      expect((await res.json()).error.code).toBe('unsupported_media_type');
    });
  });

  describe('SSO required', () => {
    it('refuses password login to non-owner members; owners keep it (break-glass)', {
      timeout: 60_000,
    }, async () => {
      const ws = await createTestWorkspace(t.ctx, { plan: 'enterprise', name: 'Strict' });
      const analyst = await addTestUser(t.ctx, { workspaceId: ws.workspaceId, role: 'analyst' });
      const login = (email: string, password: string) =>
        api('/api/auth/login', { method: 'POST', body: JSON.stringify({ email, password }) });
      expect((await login(analyst.email, analyst.password)).status).toBe(200);

      expect((await configure(ws, { ssoRequired: true })).statusCode).toBe(200);
      const refused = await login(analyst.email, analyst.password);
      expect(refused.status).toBe(403);
      const error = (await refused.json()).error;
      expect(error.code).toBe('forbidden');
      expect(error.message).toContain('requires single sign-on');
      expect(error.message).toContain(samlUrl(ws.workspaceId, 'login'));
      // A wrong password still says only that.
      expect((await login(analyst.email, 'wrong password!')).status).toBe(401);
      expect((await login(ws.owner.email, ws.owner.password)).status).toBe(200);

      // The analyst signs in through SSO instead.
      idp.user.email = analyst.email;
      expect((await signIn(ws.workspaceId)).status).toBe(303);

      expect((await configure(ws, { ssoRequired: true, enabled: false })).statusCode).toBe(200);
      expect((await login(analyst.email, analyst.password)).status).toBe(200);
    });
  });
});
