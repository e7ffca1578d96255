import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTestUser, createRoleFixture, type TestUser, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import { sha256Hex } from '../../workspace/tokens.ts';

describe('site routes', () => {
  let t: TestApp;
  let w: TestWorkspace;
  let analyst: TestUser;
  let viewer: TestUser;
  let foreign: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp();
    ({ w, analyst, viewer, foreign } = await createRoleFixture(t.ctx));
  });
  afterAll(() => t.close());

  const createSite = (headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/sites', headers, payload });

  describe('happy', () => {
    it('creates a site: 201 with both keys once, the secret stored only as sha256', async () => {
      const res = await createSite(w.owner.headers, {
        workspaceId: w.workspaceId,
        name: ' Shop ',
        allowedOrigins: ['https://shop.example', 'http://localhost:3000', 'https://shop.example'],
      });
      expect(res.statusCode).toBe(201);
      const data = res.json().data;
      expect(data).toMatchObject({
        workspaceId: w.workspaceId,
        name: 'Shop',
        allowedOrigins: ['https://shop.example', 'http://localhost:3000'],
        settings: {},
      });
      expect(data.siteId).toBe(data.id);
      expect(data.siteKey).toMatch(/^pk_[\w-]{32}$/);
      expect(data.secretKey).toMatch(/^sk_[\w-]{32}$/);
      const row = await t.ctx.database.db
        .selectFrom('sites')
        .selectAll()
        .where('id', '=', data.id)
        .executeTakeFirstOrThrow();
      expect(row.secret_key_hash).toBe(sha256Hex(data.secretKey));
      expect(JSON.parse(row.allowed_origins)).toEqual(['https://shop.example', 'http://localhost:3000']);
      const read = await t.app.inject({ url: `/api/sites/${data.id}`, headers: viewer.headers });
      expect(read.statusCode).toBe(200);
      expect(read.body).not.toContain(data.secretKey);
      expect(read.json().data).not.toHaveProperty('secretKey');
    });

    it('lists the sites of all your workspaces, or of one', async () => {
      const all = await t.app.inject({ url: '/api/sites', headers: w.owner.headers });
      expect(all.statusCode).toBe(200);
      const ids = all.json().data.map((s: { id: string }) => s.id);
      expect(ids).toContain(w.site.id);
      expect(ids).not.toContain(foreign.site.id);
      const one = await t.app.inject({
        url: `/api/sites?workspaceId=${w.workspaceId}`,
        headers: viewer.headers,
      });
      expect(one.json().data.every((s: { workspaceId: string }) => s.workspaceId === w.workspaceId)).toBe(
        true,
      );
    });

    it('PATCH replaces the whole origin list and answers the site record', async () => {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/sites/${w.site.id}`,
        headers: analyst.headers,
        payload: { allowedOrigins: ['https://a.example', 'http://[::1]:8080'], settings: { powFloor: 16 } },
      });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(Object.keys(data).sort()).toEqual(
        [
          'allowedOrigins',
          'createdAt',
          'id',
          'name',
          'settings',
          'siteKey',
          'updatedAt',
          'workspaceId',
        ].sort(),
      );
      expect(data.allowedOrigins).toEqual(['https://a.example', 'http://[::1]:8080']);
      expect(data.settings).toEqual({ powFloor: 16 });
      const cleared = await t.app.inject({
        method: 'PATCH',
        url: `/api/sites/${w.site.id}`,
        headers: w.owner.headers,
        payload: { name: 'Renamed', allowedOrigins: [], settings: { powFloor: null } },
      });
      expect(cleared.json().data).toMatchObject({ name: 'Renamed', allowedOrigins: [], settings: {} });
    });

    it('rotate-keys replaces both keys; the old ones are gone at once', async () => {
      const site = (await createSite(w.owner.headers, { workspaceId: w.workspaceId, name: 'Rot' })).json()
        .data;
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/sites/${site.id}/rotate-keys`,
        headers: w.owner.headers,
      });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(Object.keys(data).sort()).toEqual(['rotatedAt', 'secretKey', 'siteId', 'siteKey']);
      expect(data.siteId).toBe(site.id);
      expect(data.siteKey).not.toBe(site.siteKey);
      expect(data.secretKey).not.toBe(site.secretKey);
      const db = t.ctx.database.db;
      const byOldKey = await db
        .selectFrom('sites')
        .select('id')
        .where('site_key', '=', site.siteKey)
        .execute();
      expect(byOldKey).toHaveLength(0);
      const row = await db
        .selectFrom('sites')
        .selectAll()
        .where('id', '=', site.id)
        .executeTakeFirstOrThrow();
      expect(row.secret_key_hash).toBe(sha256Hex(data.secretKey));
      expect(row.keys_rotated_at).toBe(Date.parse(data.rotatedAt));
    });
  });

  describe('error', () => {
    it.each([
      ['https://shop.example/', 'path'],
      ['https://shop.example/checkout', 'path'],
      ['https://shop.example?x=1', 'query'],
      ['https://shop.example#top', 'fragment'],
      ['https://user:pw@shop.example', 'credentials'],
      ['ftp://shop.example', 'scheme'],
      ['javascript:alert(1)', 'scheme'],
      ['https://SHOP.example', 'canonical'],
      ['https://shop.example:443', 'canonical'],
      ['shop.example', 'URL'],
      ['null', 'URL'],
    ])('refuses the origin %s (%s) with 400 validation_failed', async (origin, why) => {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/sites/${w.site.id}`,
        headers: w.owner.headers,
        payload: { allowedOrigins: ['https://ok.example', origin] },
      });
      expect(res.statusCode).toBe(400);
      const error = res.json().error;
      expect(error.code).toBe('validation_failed');
      expect(error.details[0].path).toBe('body.allowedOrigins.1');
      expect(error.details[0].message).toContain(why);
    });

    it('refuses unknown fields, blank names and bad settings', async () => {
      for (const payload of [
        { secretKey: 'x' },
        { name: '   ' },
        { settings: { powFloor: 40 } },
        { settings: { x: 1 } },
      ]) {
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/sites/${w.site.id}`,
          headers: w.owner.headers,
          payload,
        });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().error.code).toBe('validation_failed');
      }
      const missing = await createSite(w.owner.headers, { workspaceId: w.workspaceId });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.details[0].path).toBe('body.name');
    });

    it('answers 404 for an unknown site', async () => {
      const res = await t.app.inject({ url: '/api/sites/nope', headers: w.owner.headers });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    });
  });

  describe('security', () => {
    it('checks 401 before anything else', async () => {
      const res = await t.app.inject({ method: 'PATCH', url: '/api/sites/nope', payload: { bad: 1 } });
      expect(res.statusCode).toBe(401);
      const expired = await t.app.inject({
        url: '/api/sites',
        headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x' },
      });
      expect(expired.statusCode).toBe(401);
    });

    it('answers 404 (not 403) for another workspace, even with an invalid body', async () => {
      const h = w.owner.headers;
      const id = foreign.site.id;
      const calls = [
        t.app.inject({ url: `/api/sites/${id}`, headers: h }),
        t.app.inject({ method: 'PATCH', url: `/api/sites/${id}`, headers: h, payload: { name: 1 } }),
        t.app.inject({ method: 'POST', url: `/api/sites/${id}/rotate-keys`, headers: h }),
        t.app.inject({ url: `/api/sites?workspaceId=${foreign.workspaceId}`, headers: h }),
        createSite(h, { workspaceId: foreign.workspaceId, name: 'x', allowedOrigins: ['bad'] }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      }
    });

    it('checks the role (403) before validation (400)', async () => {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/sites/${w.site.id}`,
        headers: viewer.headers,
        payload: { allowedOrigins: ['bad origin'] },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    });

    it('follows the permission matrix for every role', async () => {
      const roles = { owner: w.owner, analyst, viewer };
      const expected = {
        'GET site': { owner: 200, analyst: 200, viewer: 200 },
        'GET sites': { owner: 200, analyst: 200, viewer: 200 },
        'PATCH site': { owner: 200, analyst: 200, viewer: 403 },
        'POST site': { owner: 201, analyst: 403, viewer: 403 },
        'rotate keys': { owner: 200, analyst: 403, viewer: 403 },
      } as const;
      for (const [role, user] of Object.entries(roles) as Array<[keyof typeof roles, TestUser]>) {
        const h = user.headers;
        const got = {
          'GET site': (await t.app.inject({ url: `/api/sites/${w.site.id}`, headers: h })).statusCode,
          'GET sites': (await t.app.inject({ url: `/api/sites?workspaceId=${w.workspaceId}`, headers: h }))
            .statusCode,
          'PATCH site': (
            await t.app.inject({
              method: 'PATCH',
              url: `/api/sites/${w.site.id}`,
              headers: h,
              payload: { name: `by ${role}` },
            })
          ).statusCode,
          'POST site': (await createSite(h, { workspaceId: w.workspaceId, name: `by ${role}` })).statusCode,
          'rotate keys': (
            await t.app.inject({ method: 'POST', url: `/api/sites/${w.site.id}/rotate-keys`, headers: h })
          ).statusCode,
        };
        for (const op of Object.keys(expected) as Array<keyof typeof expected>) {
          expect(got[op], `${role} ${op}`).toBe(expected[op][role]);
        }
      }
    });

    it('a workspace-scoped session cannot see or touch other workspaces', async () => {
      const both = await addTestUser(t.ctx, { workspaceId: w.workspaceId, role: 'owner' });
      const { addMembership } = await import('../../workspace/workspaces.ts');
      await addMembership(t.ctx.database.db, foreign.workspaceId, both.userId, 'owner', Date.now());
      const scoped = await addTestUser(t.ctx, { email: `s-${both.email}`, workspaceScope: w.workspaceId });
      await addMembership(t.ctx.database.db, w.workspaceId, scoped.userId, 'owner', Date.now());
      await addMembership(t.ctx.database.db, foreign.workspaceId, scoped.userId, 'owner', Date.now());
      const list = await t.app.inject({ url: '/api/sites', headers: scoped.headers });
      expect(
        list.json().data.some((s: { workspaceId: string }) => s.workspaceId === foreign.workspaceId),
      ).toBe(false);
      const rotate = await t.app.inject({
        method: 'POST',
        url: `/api/sites/${foreign.site.id}/rotate-keys`,
        headers: scoped.headers,
      });
      expect(rotate.statusCode).toBe(403);
    });

    it('publishes the management routes in the OpenAPI document', async () => {
      const doc = (await t.app.inject('/api/openapi.json')).json();
      for (const path of [
        '/api/auth/login',
        '/api/auth/me',
        '/api/sites',
        '/api/sites/{id}',
        '/api/sites/{id}/rotate-keys',
        '/api/workspaces',
        '/api/workspaces/{id}/members/{userId}',
      ]) {
        expect(doc.paths[path], path).toBeDefined();
      }
      expect(doc.paths['/api/sites/{id}'].patch.tags).toEqual(['sites']);
    });

    it('never returns the secret key hash', async () => {
      const res = await t.app.inject({ url: '/api/sites', headers: w.owner.headers });
      expect(res.body).not.toMatch(/secret/i);
    });
  });
});
