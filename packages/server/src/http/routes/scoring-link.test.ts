import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINGERPRINT } from '../../scoring/test-fixtures.ts';
import { addTestUser, createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import { browserHeaders, serverHeaders } from '../../testing/scoring-app.ts';
import { decisionCreatedData } from '../../webhooks/payload.ts';

const UA = FINGERPRINT.user_agent;

/**
 * One protected submit records two decisions, the browser's /collect and the backend's /verify
 * (issue 14): the /verify decision names the browser decision it verified, its webhook says so,
 * and GET /api/stats (the dashboard overview) counts the submit once.
 */
describe('a protected submit: /collect and /verify linked, counted once', () => {
  let t: TestApp;
  let w: TestWorkspace;
  let viewer: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createTestWorkspace(t.ctx, { plan: 'pro' });
    viewer = (await addTestUser(t.ctx, { workspaceId: w.workspaceId, role: 'viewer' })).headers;
  });
  afterAll(() => t.close());

  const post = (url: string, headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/antibot${url}`, headers, payload });
  const browser = () => ({ ...browserHeaders(w.site.siteKey), 'user-agent': UA });
  const stats = async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/stats?siteId=${w.site.id}`, headers: viewer });
    expect(res.statusCode).toBe(200);
    return res.json().data as {
      total: number;
      byAction: Record<string, number>;
      byEventType: Record<string, number>;
      hourly: Array<{ total: number }>;
    };
  };

  async function collect(token: string, account: string, environment: object = {}) {
    const res = await post('/collect', browser(), {
      context: { event_type: 'login', account_id: account },
      token,
      fingerprint: FINGERPRINT,
      behavior: { v: 1, time_to_submit_ms: 900, key_presses: 3, scrolls: 1 },
      environment: { timestamp: t.ctx.now(), ...environment },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data as { request_id: string; action: string };
  }
  const verify = async (token: string, account: string) => {
    const res = await post('/verify', serverHeaders(w.site), {
      token,
      context: { event_type: 'login', account_id: account, ip_address: '127.0.0.1', user_agent: UA },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data as { request_id: string; action: string };
  };
  const row = (id: string) =>
    t.ctx.database.db.selectFrom('decisions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('the /verify decision names the browser decision it verified; stats count the submit once', async () => {
    const before = await stats();
    const fp = await post('/fingerprint', browser(), { fingerprint: FINGERPRINT });
    const token = fp.json().data.token as string;
    const page = await collect(token, 'acct_link', { cdp: true });
    const afterCollect = await stats();
    expect(afterCollect.total).toBe(before.total + 1);

    const enforced = await verify(token, 'acct_link');
    const stored = await row(enforced.request_id);
    expect(stored.browser_decision_id).toBe(page.request_id);
    expect((await row(page.request_id)).browser_decision_id).toBeNull();

    // Still one submit: the enforced /verify decision replaces the browser's in every count.
    const after = await stats();
    expect(after.total).toBe(before.total + 1);
    expect(after.byEventType.login).toBe(before.byEventType.login! + 1);
    expect(after.hourly.reduce((n, h) => n + h.total, 0)).toBe(after.total);
    expect(after.byAction[enforced.action]).toBe((before.byAction[enforced.action] ?? 0) + 1);

    // The decision detail (the dashboard's page) shows the link.
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/decisions/${enforced.request_id}`,
      headers: viewer,
    });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.browserDecisionId).toBe(page.request_id);

    // Its webhook names the browser decision too (the browser's own webhook names nothing).
    expect(decisionCreatedData(stored).metadata.browserDecisionId).toBe(page.request_id);
    expect(decisionCreatedData(await row(page.request_id)).metadata).not.toHaveProperty('browserDecisionId');
  });

  it('a browser decision nobody verified, and a /verify without a browser session, count as themselves', async () => {
    const before = await stats();
    const fp = await post('/fingerprint', browser(), { fingerprint: FINGERPRINT });
    await collect(fp.json().data.token as string, 'acct_unverified');
    const bare = await post('/fingerprint', browser(), { fingerprint: FINGERPRINT });
    const lone = await verify(bare.json().data.token as string, 'acct_lone');
    expect((await row(lone.request_id)).browser_decision_id).toBeNull();
    expect((await stats()).total).toBe(before.total + 2);
  });

  it('a second /verify of one token counts on its own (the same browser decision stays out once)', async () => {
    const before = await stats();
    const fp = await post('/fingerprint', browser(), { fingerprint: FINGERPRINT });
    const token = fp.json().data.token as string;
    const page = await collect(token, 'acct_twice');
    const first = await verify(token, 'acct_twice');
    const second = await verify(token, 'acct_twice');
    expect((await row(first.request_id)).browser_decision_id).toBe(page.request_id);
    expect((await row(second.request_id)).browser_decision_id).toBe(page.request_id);
    expect((await stats()).total).toBe(before.total + 2);
  });
});
