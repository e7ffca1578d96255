import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addTestUser,
  createTestWorkspace,
  type TestUser,
  type TestWorkspace,
} from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import { serverHeaders } from '../../testing/scoring-app.ts';

describe('decision read API', () => {
  let t: TestApp;
  let w: TestWorkspace;
  let foreign: TestWorkspace;
  let analyst: TestUser;
  let viewer: TestUser;
  const ids: string[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    w = await createTestWorkspace(t.ctx, { plan: 'pro' });
    foreign = await createTestWorkspace(t.ctx);
    analyst = await addTestUser(t.ctx, { workspaceId: w.workspaceId, role: 'analyst' });
    viewer = await addTestUser(t.ctx, { workspaceId: w.workspaceId, role: 'viewer' });
    const events = [
      { event_type: 'signup', account_id: 'u1', ip_address: '203.0.113.1' },
      { event_type: 'login', account_id: 'u1', ip_address: '203.0.113.1' },
      { event_type: 'login', account_id: 'u2', ip_address: '203.0.113.2' },
      { event_type: 'checkout', account_id: 'u2', ip_address: '203.0.113.2', order_amount: 10 },
      { event_type: 'page_view', account_id: 'u3', ip_address: '203.0.113.3' },
    ];
    for (const context of events) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/antibot/verify',
        headers: serverHeaders(w.site),
        payload: { context },
      });
      ids.push(res.json().data.request_id);
    }
    await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: serverHeaders(foreign.site),
      payload: { context: { event_type: 'login', account_id: 'f' } },
    });
  });
  afterAll(() => t.close());

  const get = (url: string, user: TestUser = w.owner) =>
    t.app.inject({ method: 'GET', url, headers: user.headers });
  const list = (query: string, user?: TestUser) => get(`/api/decisions?siteId=${w.site.id}${query}`, user);

  describe('list', () => {
    it('pages newest first with a cursor', async () => {
      const seen: Array<{ id: string; createdAt: string }> = [];
      let cursor: string | null = null;
      do {
        const res = await list(`&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.statusCode).toBe(200);
        const page = res.json().data;
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen.map((i) => i.id).sort()).toEqual([...ids].sort());
      const times = seen.map((i) => Date.parse(i.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });

    it('returns summaries with the decision fields', async () => {
      const item = (await list(`&limit=1&accountId=u3`)).json().data.items[0];
      expect(item).toMatchObject({
        id: ids[4],
        siteId: w.site.id,
        eventType: 'page_view',
        accountId: 'u3',
        ipAddress: '203.0.113.3',
        signals: expect.any(Array),
        label: null,
      });
      expect(item.createdAt).toMatch(/Z$/);
    });

    it.each([
      ['&eventType=login', 2],
      ['&accountId=u2', 2],
      ['&ip=203.0.113.1', 2],
      ['&accountId=u1&eventType=signup', 1],
      ['&deviceId=', 5],
      ['&from=2000-01-01T00:00:00Z&to=2001-01-01T00:00:00Z', 0],
      [`&to=${Date.now() + 60_000}`, 5],
    ])('filters %s', async (query, n) => {
      const res = await list(query);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.items).toHaveLength(n);
    });

    it('filters by classification and action', async () => {
      const all = (await list('')).json().data.items as Array<{ classification: string; action: string }>;
      const first = all[0]!;
      const res = await list(`&classification=${first.classification}&action=${first.action}`);
      expect(res.json().data.items.length).toBe(
        all.filter((i) => i.classification === first.classification && i.action === first.action).length,
      );
    });

    it('filters by several actions at once (the review queue: review,challenge)', async () => {
      const all = (await list('')).json().data.items as Array<{ action: string }>;
      const actions = [...new Set(all.map((i) => i.action))];
      const two = actions.slice(0, 2).join(',');
      const res = await list(`&action=${two}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.items).toHaveLength(all.filter((i) => two.split(',').includes(i.action)).length);
      const queue = await list('&action=review,challenge');
      expect(queue.statusCode).toBe(200);
      for (const i of queue.json().data.items) expect(['review', 'challenge']).toContain(i.action);
    });

    it('lets a viewer read, hides foreign sites (404), needs a token (401)', async () => {
      expect((await list('', viewer)).statusCode).toBe(200);
      const foreignList = await get(`/api/decisions?siteId=${foreign.site.id}`);
      expect(foreignList.statusCode).toBe(404);
      expect(foreignList.json().error.code).toBe('not_found');
      const anonymous = await t.app.inject({ method: 'GET', url: `/api/decisions?siteId=${w.site.id}` });
      expect(anonymous.statusCode).toBe(401);
    });

    it.each([
      ['', 'querystring.siteId', '/api/decisions'],
      ['&limit=0', 'querystring.limit', ''],
      ['&limit=101', 'querystring.limit', ''],
      ['&eventType=purchase', 'querystring.eventType', ''],
      ['&cursor=bm9wZQ', 'querystring.cursor', ''],
      ['&from=yesterday', 'querystring.from', ''],
      ['&from=2026-02-30T00:00:00Z', 'querystring.from', ''],
      ['&to=2026-11-31', 'querystring.to', ''],
      ['&from=2026-13-01', 'querystring.from', ''],
      ['&from=Nov%2022%202026', 'querystring.from', ''],
      ['&sort=asc', 'querystring.sort', ''],
      ['&action=review,maybe', 'querystring.action', ''],
      ['&action=review,', 'querystring.action', ''],
    ])('answers 400 for %s', async (query, path, url) => {
      const res = url ? await get(url) : await list(query);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.map((d: { path: string }) => d.path)).toContain(path);
    });

    it('answers 404 before 400 for a foreign site with a bad query', async () => {
      const res = await get(`/api/decisions?siteId=${foreign.site.id}&limit=0`);
      expect(res.statusCode).toBe(404);
    });
  });

  describe('one decision', () => {
    it('has signals, evidence, features and the answered decision', async () => {
      const res = await get(`/api/decisions/${ids[3]}`, viewer);
      expect(res.statusCode).toBe(200);
      const d = res.json().data;
      expect(d).toMatchObject({ id: ids[3], eventType: 'checkout', orderAmount: 10, paymentHash: null });
      expect(d.evidence).toEqual(expect.any(Object));
      // How long it is kept: the default 30 days of evidence and 365 of decision, from its time.
      const day = 24 * 60 * 60 * 1000;
      expect(d.retention).toEqual({
        evidenceUntil: new Date(Date.parse(d.createdAt) + 30 * day).toISOString(),
        keptUntil: new Date(Date.parse(d.createdAt) + 365 * day).toISOString(),
      });
      expect(d.features).toEqual(expect.any(Object));
      expect(d.response.request_id).toBe(ids[3]);
      expect(d.response.signals).toEqual(d.signals);
    });

    it('answers 404 for unknown and foreign decisions', async () => {
      expect((await get('/api/decisions/nope')).statusCode).toBe(404);
      const foreignId = (
        await t.ctx.database.db
          .selectFrom('decisions')
          .select('id')
          .where('site_id', '=', foreign.site.id)
          .executeTakeFirstOrThrow()
      ).id;
      const res = await get(`/api/decisions/${foreignId}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Decision not found.');
    });
  });

  describe('labels', () => {
    const label = (id: string, body: unknown, user: TestUser) =>
      t.app.inject({
        method: 'POST',
        url: `/api/decisions/${id}/label`,
        headers: user.headers,
        payload: body as object,
      });

    it('lets owners and analysts label', async () => {
      const res = await label(ids[0]!, { label: 'fraud' }, analyst);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: ids[0], label: 'fraud', labeledAt: expect.any(String) });
      expect((await label(ids[0]!, { label: 'legit' }, w.owner)).json().data.label).toBe('legit');
      expect((await get(`/api/decisions/${ids[0]}`)).json().data.label).toBe('legit');
    });

    it('refuses viewers with 403, before validating the body', async () => {
      const res = await label(ids[1]!, { label: 'maybe' }, viewer);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    });

    it('answers 404 for foreign decisions and 400 for bad labels', async () => {
      const foreignId = (
        await t.ctx.database.db
          .selectFrom('decisions')
          .select('id')
          .where('site_id', '=', foreign.site.id)
          .executeTakeFirstOrThrow()
      ).id;
      expect((await label(foreignId, { label: 'fraud' }, w.owner)).statusCode).toBe(404);
      const bad = await label(ids[1]!, { label: 'maybe' }, w.owner);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details[0].path).toBe('body.label');
    });
  });

  describe('stats', () => {
    it('counts by classification, action, event type and hour', async () => {
      const res = await get(`/api/stats?siteId=${w.site.id}`, viewer);
      expect(res.statusCode).toBe(200);
      const s = res.json().data;
      expect(s.total).toBe(5);
      expect(s.byEventType).toEqual({ signup: 1, login: 2, promo_claim: 0, checkout: 1, page_view: 1 });
      expect(Object.values(s.byClassification as Record<string, number>).reduce((a, b) => a + b)).toBe(5);
      expect(Object.values(s.byAction as Record<string, number>).reduce((a, b) => a + b)).toBe(5);
      expect(Object.keys(s.byAction).sort()).toEqual(['allow', 'block', 'challenge', 'review']);
      const hourly = s.hourly as Array<{ total: number; hour: string }>;
      expect(hourly.reduce((a, h) => a + h.total, 0)).toBe(5);
      expect(hourly[0]!.hour).toMatch(/T\d\d:00:00\.000Z$/);
    });

    it('counts every hour by action as well as by classification', async () => {
      const s = (await get(`/api/stats?siteId=${w.site.id}`)).json().data;
      const actions = ['allow', 'review', 'challenge', 'block'] as const;
      const hourly = s.hourly as Array<Record<string, number | string>>;
      expect(hourly.length).toBeGreaterThan(0);
      const perAction: Record<string, number> = { allow: 0, review: 0, challenge: 0, block: 0 };
      for (const h of hourly) {
        for (const a of actions) {
          expect(h[a], `${h.hour} ${a}`).toEqual(expect.any(Number));
          perAction[a]! += h[a] as number;
        }
        const byAction = actions.reduce((n, a) => n + (h[a] as number), 0);
        expect(byAction).toBe(h.total);
        expect((h.human as number) + (h.suspicious as number) + (h.bot as number)).toBe(h.total);
      }
      expect(perAction).toEqual(s.byAction);
      // An empty window has no hours at all.
      const empty = (await get(`/api/stats?siteId=${w.site.id}&from=2000-01-01&to=2000-01-02`)).json().data;
      expect(empty.hourly).toEqual([]);
    });

    it('honours from/to and rejects bad windows', async () => {
      const empty = await get(`/api/stats?siteId=${w.site.id}&from=2000-01-01&to=2000-01-02`);
      expect(empty.json().data.total).toBe(0);
      expect((await get(`/api/stats?siteId=${w.site.id}&from=2024-02-29&to=2024-03-01`)).statusCode).toBe(
        200,
      );
      expect((await get(`/api/stats?siteId=${w.site.id}&from=2025-02-29&to=2025-03-01`)).statusCode).toBe(
        400,
      );
      expect((await get(`/api/stats?siteId=${w.site.id}&from=2000-01-02&to=2000-01-01`)).statusCode).toBe(
        400,
      );
      expect((await get(`/api/stats?siteId=${w.site.id}&from=2000-01-01&to=2001-01-01`)).statusCode).toBe(
        400,
      );
      expect((await get(`/api/stats?siteId=${foreign.site.id}`)).statusCode).toBe(404);
    });
  });
});
