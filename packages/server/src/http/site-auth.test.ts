import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../errors.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/accounts.ts';
import { createTestApp, type TestApp, testDialects } from '../testing/context.ts';
import { BROWSER_ORIGIN, browserHeaders, loginEvent, serverHeaders } from '../testing/scoring-app.ts';
import { rotateSiteKeys, updateSite } from '../workspace/sites.ts';
import { setPlan } from '../workspace/workspaces.ts';
import { serverSiteAuth } from './site-auth.ts';

describe.each(testDialects())('site auth of the scoring routes on %s', (dialect) => {
  let t: TestApp;
  let w: TestWorkspace;
  let other: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    w = await createTestWorkspace(t.ctx, { origins: [BROWSER_ORIGIN, 'http://localhost:3000'] });
    other = await createTestWorkspace(t.ctx, { origins: ['https://other.example'] });
  });
  afterAll(() => t.close());

  const verify = (headers: Record<string, string>, payload: unknown = loginEvent()) =>
    t.app.inject({ method: 'POST', url: '/api/antibot/verify', headers, payload: payload as object });
  const collect = (headers: Record<string, string>, payload: unknown = loginEvent()) =>
    t.app.inject({ method: 'POST', url: '/api/antibot/collect', headers, payload: payload as object });

  describe('server routes', () => {
    it('accepts the site key with its secret key', async () => {
      const res = await verify(serverHeaders(w.site));
      expect(res.statusCode).toBe(201);
      expect(res.json().data.request_id).toBeTruthy();
    });

    it('answers 401 missing_site_key / invalid_site_key', async () => {
      const missing = await verify({ 'x-secret-key': w.site.secretKey });
      expect(missing.statusCode).toBe(401);
      expect(missing.json().error.code).toBe('missing_site_key');
      const unknown = await verify({ 'x-site-key': 'pk_nope', 'x-secret-key': w.site.secretKey });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json().error.code).toBe('invalid_site_key');
    });

    it('answers 401 missing_secret_key / invalid_secret_key, never echoing the secret', async () => {
      const missing = await verify({ 'x-site-key': w.site.siteKey });
      expect(missing.json().error.code).toBe('missing_secret_key');
      const wrong = await verify({ 'x-site-key': w.site.siteKey, 'x-secret-key': `${w.site.secretKey}x` });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error.code).toBe('invalid_secret_key');
      expect(wrong.body).not.toContain(w.site.secretKey);
    });

    it("refuses another site's secret", async () => {
      const res = await verify({ 'x-site-key': w.site.siteKey, 'x-secret-key': other.site.secretKey });
      expect(res.json().error.code).toBe('invalid_secret_key');
    });

    it('authenticates a remembered site key with a plain call (no promise), an unknown one after its lookup', async () => {
      expect((await verify(serverHeaders(w.site))).statusCode).toBe(201); // the key is remembered now
      const hook = serverSiteAuth(t.ctx.services.sites);
      const request = { headers: serverHeaders(w.site) } as unknown as FastifyRequest;
      let settled: Error | undefined | 'pending' = 'pending';
      expect(hook(request, {} as FastifyReply, (err) => (settled = err))).toBeUndefined();
      expect(settled).toBeUndefined();
      expect(request.scoringSite?.site.id).toBe(w.site.id);

      const unknown = {
        headers: { 'x-site-key': 'pk_nope', 'x-secret-key': 's' },
      } as unknown as FastifyRequest;
      const failed = await new Promise<Error | undefined>((resolve) =>
        hook(unknown, {} as FastifyReply, resolve),
      );
      expect((failed as ApiError).code).toBe('invalid_site_key');
    });

    it('does not accept a secret key on browser routes in place of the Origin', async () => {
      const res = await collect(serverHeaders(w.site));
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('origin_not_allowed');
    });
  });

  describe('browser routes', () => {
    it('accepts an allowed Origin and answers with CORS headers', async () => {
      const res = await collect(browserHeaders(w.site.siteKey));
      expect(res.statusCode).toBe(201);
      expect(res.headers['access-control-allow-origin']).toBe(BROWSER_ORIGIN);
      expect(res.headers.vary).toContain('Origin');
    });

    it.each([
      ['absent', undefined],
      ['with a path', `${BROWSER_ORIGIN}/checkout`],
      ['with another port', `${BROWSER_ORIGIN}:8443`],
      ['over http', 'http://shop.example'],
      ['of another site', 'https://other.example'],
      ['a lookalike', 'https://shop.example.evil.test'],
    ])('refuses an Origin %s with 403 origin_not_allowed', async (_label, origin) => {
      const headers = browserHeaders(w.site.siteKey);
      if (origin === undefined) delete (headers as Record<string, string | undefined>).origin;
      else headers.origin = origin;
      const res = await collect(headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('origin_not_allowed');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('lets the page read errors answered before the origin check, for an allowed Origin only', async () => {
      const headers = browserHeaders(w.site.siteKey);
      const early = [
        await t.app.inject({
          method: 'POST',
          url: '/api/antibot/collect',
          headers: { ...headers, 'content-type': 'application/json' },
          payload: '{x',
        }),
        await t.app.inject({
          method: 'POST',
          url: '/api/antibot/collect',
          headers: { ...headers, 'content-type': 'text/plain' },
          payload: 'x',
        }),
        await collect({ ...headers, 'x-site-key': 'pk_nope' }),
        await collect(headers, { pad: 'x'.repeat(300 * 1024) }),
      ];
      expect(early.map((r) => r.json().error.code)).toEqual([
        'invalid_json',
        'unsupported_media_type',
        'invalid_site_key',
        'payload_too_large',
      ]);
      for (const res of early) {
        expect(res.headers['access-control-allow-origin']).toBe(BROWSER_ORIGIN);
        expect(res.headers.vary).toContain('Origin');
      }
      const foreign = await t.app.inject({
        method: 'POST',
        url: '/api/antibot/collect',
        headers: { ...headers, origin: 'https://evil.test', 'content-type': 'application/json' },
        payload: '{x',
      });
      expect(foreign.json().error.code).toBe('invalid_json');
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
      // Another site's origin is not this site's: the named site decides.
      const other = await t.app.inject({
        method: 'POST',
        url: '/api/antibot/collect',
        headers: { ...headers, origin: 'https://other.example', 'content-type': 'application/json' },
        payload: '{x',
      });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('checks the site key before the origin', async () => {
      const res = await collect({ origin: 'https://evil.test' });
      expect(res.json().error.code).toBe('missing_site_key');
      const bad = await collect({ 'x-site-key': 'pk_nope', origin: 'https://evil.test' });
      expect(bad.json().error.code).toBe('invalid_site_key');
    });
  });

  describe('CORS preflight', () => {
    const preflight = (origin?: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/antibot/collect',
        headers: {
          ...(origin ? { origin } : {}),
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-site-key',
        },
      });

    it('answers 204 with CORS headers for an origin some site allows', async () => {
      for (const origin of [BROWSER_ORIGIN, 'https://other.example']) {
        const res = await preflight(origin);
        expect(res.statusCode).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(res.headers['access-control-allow-methods']).toContain('POST');
        expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('x-site-key');
        expect(res.headers.vary).toContain('Origin');
      }
    });

    it('answers 403 for unknown, lookalike or LIKE-pattern origins', async () => {
      for (const origin of ['https://evil.test', 'https://shop.exampl', '%', 'https://shop_example']) {
        const res = await preflight(origin);
        expect(res.statusCode).toBe(403);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
      expect((await preflight()).statusCode).toBe(403);
    });

    it('is offered on every browser route', async () => {
      for (const path of ['/fingerprint', '/collect', '/events/batch', '/challenge', '/challenge/verify']) {
        const res = await t.app.inject({
          method: 'OPTIONS',
          url: `/api/antibot${path}`,
          headers: { origin: BROWSER_ORIGIN, 'access-control-request-method': 'POST' },
        });
        expect(res.statusCode, path).toBe(204);
      }
    });
  });

  it('stops accepting rotated keys at once, and accepts the new ones', async () => {
    const rotating = await createTestWorkspace(t.ctx, { origins: [BROWSER_ORIGIN] });
    expect((await verify(serverHeaders(rotating.site))).statusCode).toBe(201);
    const keys = await rotateSiteKeys(
      t.ctx.database.db,
      rotating.site.id,
      Date.now(),
      t.ctx.services.siteKeys,
    );
    const old = await verify(serverHeaders(rotating.site));
    expect(old.statusCode).toBe(401);
    expect(old.json().error.code).toBe('invalid_site_key');
    const oldBrowser = await collect(browserHeaders(rotating.site.siteKey));
    expect(oldBrowser.json().error.code).toBe('invalid_site_key');
    const oldSecret = await verify({ 'x-site-key': keys.siteKey, 'x-secret-key': rotating.site.secretKey });
    expect(oldSecret.json().error.code).toBe('invalid_secret_key');
    expect((await verify(serverHeaders(keys))).statusCode).toBe(201);
  });

  // Lookups by key are remembered (workspace/site-key-cache.ts): every change
  // made through the workspace functions must still show on the very next request.
  it('sees a changed origin list and plan on the next request', async () => {
    const changing = await createTestWorkspace(t.ctx, { origins: [BROWSER_ORIGIN] });
    expect((await collect(browserHeaders(changing.site.siteKey))).statusCode).toBe(201);
    const row = await t.ctx.database.db
      .selectFrom('sites')
      .selectAll()
      .where('id', '=', changing.site.id)
      .executeTakeFirstOrThrow();
    await updateSite(
      t.ctx.database.db,
      row,
      { allowedOrigins: ['https://moved.example'] },
      Date.now(),
      t.ctx.services.siteKeys,
    );
    const moved = await collect(browserHeaders(changing.site.siteKey));
    expect(moved.json().error.code).toBe('origin_not_allowed');

    const before = await verify(serverHeaders(changing.site));
    expect(before.json().data.identity).toBeUndefined();
    await setPlan(t.ctx.database.db, changing.workspaceId, 'pro', Date.now(), t.ctx.services.siteKeys);
    expect((await verify(serverHeaders(changing.site))).json().data.identity).toBeDefined();
  });

  // Lookups are remembered on every dialect: on PostgreSQL another server process (or the CLI)
  // changes a site unseen by this process's cache, for at most 1 s.
  it('sees a change made outside this process within 1 s (SPEC §10)', async () => {
    let now = Date.now();
    const clocked = await createTestApp({ dialect, now: () => now });
    try {
      // On PostgreSQL lookups are remembered once the change listener is up (site-change-feed.ts).
      await clocked.ctx.services.siteChanges.whenListening();
      const elsewhere = await createTestWorkspace(clocked.ctx, { origins: [BROWSER_ORIGIN] });
      const post = () =>
        clocked.app.inject({
          method: 'POST',
          url: '/api/antibot/verify',
          headers: serverHeaders(elsewhere.site),
          payload: loginEvent(),
        });
      expect((await post()).json().data.identity).toBeUndefined();
      // As `warden workspace plan` in another process would: no siteKeys.changed() here.
      await clocked.ctx.database.db
        .updateTable('workspaces')
        .set({ plan: 'pro' })
        .where('id', '=', elsewhere.workspaceId)
        .execute();
      // Still the remembered lookup (no query per request)…
      expect((await post()).json().data.identity).toBeUndefined();
      now += 999;
      expect((await post()).json().data.identity).toBeUndefined();
      // …until 1 s after it was made. SPEC §10: a CLI change reaches the server within 1 s.
      now += 1;
      expect((await post()).json().data.identity).toBeDefined();
    } finally {
      await clocked.close();
    }
  });
});
