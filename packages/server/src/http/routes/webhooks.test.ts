import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import {
  createMember,
  createSite,
  decisionRow,
  type SiteFixture,
  setPlan,
} from '../../webhooks/test-fixtures.ts';

const HOOK = 'https://hooks.example.com/warden';

describe('webhook routes', () => {
  let t: TestApp;
  let site: SiteFixture;
  let owner: string;
  let analyst: string;
  let viewer: string;

  beforeAll(async () => {
    t = await createTestApp();
    site = await createSite(t.ctx.database, 'pro');
    owner = await createMember(t.ctx, site.workspaceId, 'owner');
    analyst = await createMember(t.ctx, site.workspaceId, 'analyst');
    viewer = await createMember(t.ctx, site.workspaceId, 'viewer');
  });
  afterAll(() => t.close());

  function call(method: 'GET' | 'PUT' | 'POST', url: string, token?: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }
  const q = (s: SiteFixture = site) => `?siteId=${s.siteId}`;
  const code = (res: { json(): { error?: { code?: string } } }) => res.json().error?.code;

  describe('access checks in SPEC §10 order', () => {
    it('401 without or with a bad token, before anything else', async () => {
      for (const [method, url] of [
        ['GET', `/api/webhooks${q()}`],
        ['PUT', '/api/webhooks'],
        ['POST', '/api/webhooks/test?siteId=nope'],
        ['POST', '/api/webhooks/deliveries/x/redeliver'],
      ] as const) {
        const res = await call(method, url, undefined, method === 'PUT' ? { bad: 1 } : undefined);
        expect(res.statusCode).toBe(401);
        expect(code(res)).toBe('unauthorized');
      }
      expect((await call('GET', `/api/webhooks${q()}`, 'garbage')).statusCode).toBe(401);
    });

    it('404 for unknown sites and sites of other workspaces (even with a bad body)', async () => {
      const foreign = await createSite(t.ctx.database, 'pro');
      for (const s of ['unknown-site', foreign.siteId]) {
        const res = await call('PUT', `/api/webhooks?siteId=${s}`, owner, { url: 42 });
        expect(res.statusCode).toBe(404);
        expect(code(res)).toBe('not_found');
      }
    });

    it('403 for analysts and viewers (before plan and validation)', async () => {
      for (const token of [analyst, viewer]) {
        expect(code(await call('GET', `/api/webhooks${q()}`, token))).toBe('forbidden');
        const put = await call('PUT', `/api/webhooks${q()}`, token, { url: 'nope' });
        expect(put.statusCode).toBe(403);
        expect((await call('POST', `/api/webhooks/test${q()}`, token)).statusCode).toBe(403);
      }
    });

    it('402 plan_required on the free plan (before validation); the demo workspace is exempt', async () => {
      const free = await createSite(t.ctx.database, 'free');
      const freeOwner = await createMember(t.ctx, free.workspaceId, 'owner');
      const res = await call('PUT', `/api/webhooks${q(free)}`, freeOwner, { url: 'not-a-url' });
      expect(res.statusCode).toBe(402);
      expect(code(res)).toBe('plan_required');
      const demo = await createSite(t.ctx.database, 'free', true);
      const demoOwner = await createMember(t.ctx, demo.workspaceId, 'owner');
      expect(
        (await call('PUT', `/api/webhooks${q(demo)}`, demoOwner, { url: HOOK, enabled: true })).statusCode,
      ).toBe(200);
    });

    it('400 validation_failed for a missing siteId or a bad body', async () => {
      expect(code(await call('GET', '/api/webhooks', owner))).toBe('validation_failed');
      for (const body of [
        { url: HOOK },
        { url: HOOK, enabled: 'yes' },
        { url: HOOK, enabled: true, extra: 1 },
      ]) {
        const res = await call('PUT', `/api/webhooks${q()}`, owner, body);
        expect(res.statusCode).toBe(400);
        expect(code(res)).toBe('validation_failed');
      }
    });

    it('400 invalid_webhook_url with the reason in the message', async () => {
      for (const [url, reason] of [
        ['http://hooks.example.com/', /scheme must be https/],
        ['https://hooks.example.com:8443/', /port must be 443/],
        ['https://u:p@hooks.example.com/', /credentials/],
        ['https://localhost/', /loopback/],
        ['https://169.254.169.254/', /metadata/],
        ['https://[::ffff:10.0.0.1]/', /IPv4-mapped/],
        ['https://2130706433/', /non-standard/],
        ['https://db.internal/', /private platform/],
      ] as const) {
        const res = await call('PUT', `/api/webhooks${q()}`, owner, { url, enabled: true });
        expect(res.statusCode).toBe(400);
        expect(code(res)).toBe('invalid_webhook_url');
        expect(res.json().error.message).toMatch(reason);
      }
    });
  });

  describe('DNS answers when saved', () => {
    it('refuses a name that resolves to a blocked address; accepts one that does not resolve yet', async () => {
      const answers: Record<string, string[]> = {
        'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
        'public.example.com': ['93.184.216.34'],
      };
      const asked: string[] = [];
      t.ctx.lookup = async (host) => {
        asked.push(host);
        const found = answers[host];
        if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
        return found.map((address) => ({ address, family: 4 }));
      };
      try {
        const before = (await call('GET', `/api/webhooks${q()}`, owner)).json().data;
        const refused = await call('PUT', `/api/webhooks${q()}`, owner, {
          url: 'https://rebind.example.com/hook',
          enabled: true,
        });
        expect(refused.statusCode).toBe(400);
        expect(code(refused)).toBe('invalid_webhook_url');
        expect(refused.json().error.message).toMatch(/rebind\.example\.com resolves to 127\.0\.0\.1/);
        // Nothing saved by the refusal.
        expect((await call('GET', `/api/webhooks${q()}`, owner)).json().data).toEqual(before);
        for (const url of ['https://public.example.com/hook', 'https://not-yet.example.com/hook']) {
          const res = await call('PUT', `/api/webhooks${q()}`, owner, { url, enabled: true });
          expect(res.statusCode).toBe(200);
          expect(res.json().data.url).toBe(url);
        }
        expect(asked).toEqual(['rebind.example.com', 'public.example.com', 'not-yet.example.com']);
      } finally {
        delete t.ctx.lookup;
      }
    });
  });

  describe('configuration', () => {
    let s: SiteFixture;
    let token: string;
    beforeAll(async () => {
      s = await createSite(t.ctx.database, 'enterprise');
      token = await createMember(t.ctx, s.workspaceId, 'owner');
    });

    it('reads an empty configuration before the first save', async () => {
      const res = await call('GET', `/api/webhooks${q(s)}`, token);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        siteId: s.siteId,
        url: null,
        enabled: false,
        secret: null,
        createdAt: null,
        updatedAt: null,
        deliveries: [],
      });
    });

    it('creates the secret on first save, keeps it, and rotates it on request', async () => {
      const first = await call('PUT', `/api/webhooks${q(s)}`, token, { url: HOOK, enabled: true });
      expect(first.statusCode).toBe(200);
      const saved = first.json().data;
      expect(saved).toMatchObject({ siteId: s.siteId, url: HOOK, enabled: true, deliveries: [] });
      expect(saved.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      const again = (
        await call('PUT', `/api/webhooks${q(s)}`, token, { url: `${HOOK}/v2`, enabled: true })
      ).json().data;
      expect(again.secret).toBe(saved.secret);
      expect(again.url).toBe(`${HOOK}/v2`);
      const rotated = (
        await call('PUT', `/api/webhooks${q(s)}`, token, { url: HOOK, enabled: true, rotateSecret: true })
      ).json().data;
      expect(rotated.secret).not.toBe(saved.secret);
      expect((await call('GET', `/api/webhooks${q(s)}`, token)).json().data.secret).toBe(rotated.secret);
    });

    it('lists at most 25 deliveries, newest first, with the delivery record fields', async () => {
      for (let i = 0; i < 27; i++) {
        await t.ctx.services.decisions.record(decisionRow(s, { created_at: Date.now() + i }));
        await new Promise((r) => setTimeout(r, 2));
      }
      const data = (await call('GET', `/api/webhooks${q(s)}`, token)).json().data;
      expect(data.deliveries).toHaveLength(25);
      const times = data.deliveries.map((d: { createdAt: string }) => d.createdAt);
      expect([...times].sort().reverse()).toEqual(times);
      expect(Object.keys(data.deliveries[0]).sort()).toEqual(
        [
          'attempts',
          'createdAt',
          'decisionId',
          'id',
          'lastError',
          'lastResponseBody',
          'lastStatusCode',
          'nextAttemptAt',
          'status',
          'updatedAt',
        ].sort(),
      );
      expect(data.deliveries[0]).toMatchObject({ status: 'pending', attempts: 0, lastStatusCode: null });
    });

    it('disabling cancels queued deliveries; losing the plan answers 402', async () => {
      const off = (await call('PUT', `/api/webhooks${q(s)}`, token, { url: HOOK, enabled: false })).json()
        .data;
      expect(off.enabled).toBe(false);
      expect(off.deliveries.every((d: { status: string }) => d.status === 'cancelled')).toBe(true);
      expect(off.deliveries[0].lastError).toBe('the webhook was disabled');
      await setPlan(t.ctx.database, s.workspaceId, 'free');
      expect(code(await call('GET', `/api/webhooks${q(s)}`, token))).toBe('plan_required');
      await setPlan(t.ctx.database, s.workspaceId, 'enterprise');
    });
  });

  describe('test route and redelivery', () => {
    let s: SiteFixture;
    let token: string;
    beforeAll(async () => {
      s = await createSite(t.ctx.database, 'pro');
      token = await createMember(t.ctx, s.workspaceId, 'owner');
    });

    it('409 conflict without an enabled webhook, then without a decision', async () => {
      expect(code(await call('POST', `/api/webhooks/test${q(s)}`, token))).toBe('conflict');
      await call('PUT', `/api/webhooks${q(s)}`, token, { url: HOOK, enabled: false });
      expect(code(await call('POST', `/api/webhooks/test${q(s)}`, token))).toBe('conflict');
      await call('PUT', `/api/webhooks${q(s)}`, token, { url: HOOK, enabled: true });
      const res = await call('POST', `/api/webhooks/test${q(s)}`, token);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toMatch(/no recorded decision/);
    });

    it('202 with a new delivery wrapping the latest decision', async () => {
      await t.ctx.services.decisions.record(decisionRow(s, { id: 'req_old', created_at: Date.now() - 1000 }));
      await t.ctx.services.decisions.record(decisionRow(s, { id: 'req_latest', created_at: Date.now() }));
      const res = await call('POST', `/api/webhooks/test${q(s)}`, token);
      expect(res.statusCode).toBe(202);
      const { deliveryId, decisionId } = res.json().data;
      expect(decisionId).toBe('req_latest');
      const deliveries = (await call('GET', `/api/webhooks${q(s)}`, token)).json().data.deliveries;
      expect(deliveries).toHaveLength(3);
      expect(deliveries.filter((d: { decisionId: string }) => d.decisionId === 'req_latest')).toHaveLength(2);
      expect(deliveries.some((d: { id: string }) => d.id === deliveryId)).toBe(true);
    });

    it('redelivers: failed → same id re-queued, succeeded → new delivery, pending → 409', async () => {
      const db = t.ctx.database.db;
      const [a, b] = await db
        .selectFrom('webhook_deliveries')
        .select(['id', 'decision_id'])
        .where('site_id', '=', s.siteId)
        .limit(2)
        .execute();
      expect(code(await call('POST', `/api/webhooks/deliveries/${a!.id}/redeliver`, token))).toBe('conflict');
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', attempts: 5 })
        .where('id', '=', a!.id)
        .execute();
      const again = await call('POST', `/api/webhooks/deliveries/${a!.id}/redeliver`, token);
      expect(again.statusCode).toBe(202);
      expect(again.json().data).toEqual({ deliveryId: a!.id, decisionId: a!.decision_id });
      const row = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', a!.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', attempts: 0 });
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'succeeded' })
        .where('id', '=', b!.id)
        .execute();
      const fresh = await call('POST', `/api/webhooks/deliveries/${b!.id}/redeliver`, token);
      expect(fresh.statusCode).toBe(202);
      expect(fresh.json().data.deliveryId).not.toBe(b!.id);
      expect(fresh.json().data.decisionId).toBe(b!.decision_id);
      expect(code(await call('POST', `/api/webhooks/deliveries/${b!.id}/redeliver`, viewer))).toBe(
        'not_found',
      );
      const viewerHere = await createMember(t.ctx, s.workspaceId, 'viewer');
      expect(code(await call('POST', `/api/webhooks/deliveries/${b!.id}/redeliver`, viewerHere))).toBe(
        'forbidden',
      );
      expect(code(await call('POST', '/api/webhooks/deliveries/nope/redeliver', token))).toBe('not_found');
    });
  });
});
