import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackDecision } from '../../decisions/packed-row.ts';
import { FINGERPRINT } from '../../scoring/test-fixtures.ts';
import { addTestUser, createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import { browserHeaders, serverHeaders } from '../../testing/scoring-app.ts';

interface Signal {
  rule: string;
  score: number;
  description: string;
}

const UA = FINGERPRINT.user_agent;

/** Interaction without any mouse tell: a few keys, a scroll, no clicks. */
function behavior(timeToSubmitMs: number) {
  return {
    v: 1,
    time_to_submit_ms: timeToSubmitMs,
    key_presses: 3,
    scrolls: 1,
    key_samples: [
      [100, 80],
      [290, 95],
      [520, 70],
    ],
  };
}

/**
 * The real engine behind the real routes: the backend's /verify for a page session carries what
 * the browser's /collect of that session found (issue 14).
 */
describe('/verify carries the browser session of its token', () => {
  let t: TestApp;
  let w: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createTestWorkspace(t.ctx, { plan: 'pro' });
  });
  afterAll(() => t.close());

  const post = (url: string, headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/antibot${url}`, headers, payload });
  const browser = () => ({ ...browserHeaders(w.site.siteKey), 'user-agent': UA });

  async function page(account: string, environment: object, timeToSubmitMs: number) {
    const fp = await post('/fingerprint', browser(), { fingerprint: FINGERPRINT });
    expect(fp.statusCode).toBe(201);
    const token = fp.json().data.token as string;
    const collect = await post('/collect', browser(), {
      context: { event_type: 'login', account_id: account },
      token,
      fingerprint: FINGERPRINT,
      behavior: behavior(timeToSubmitMs),
      environment: { timestamp: t.ctx.now(), ...environment },
    });
    expect(collect.statusCode).toBe(201);
    return { token, collect: collect.json().data };
  }

  const verify = (token: string, account: string) =>
    post('/verify', serverHeaders(w.site), {
      token,
      context: { event_type: 'login', account_id: account, ip_address: '127.0.0.1', user_agent: UA },
    });

  it('a suspicious browser session (CDP + fast submit) is not allowed at /verify', async () => {
    const { token, collect } = await page('acct_cdp', { cdp: true }, 900);
    const browserRules = (collect.signals as Signal[]).map((s) => s.rule);
    expect(browserRules).toEqual(expect.arrayContaining(['automation_cdp', 'fast_submit']));
    expect(collect.risk_score).toBeGreaterThanOrEqual(30);
    expect(collect.risk_score).toBeLessThan(60);

    const res = await verify(token, 'acct_cdp');
    expect(res.statusCode).toBe(201);
    const d = res.json().data;
    expect(d.risk_score).toBeGreaterThanOrEqual(collect.risk_score);
    expect(d.action).not.toBe('allow');
    const signals = d.signals as Signal[];
    const cdp = signals.find((s) => s.rule === 'carried_automation_cdp');
    expect(cdp?.score).toBe(35);
    expect(cdp?.description).toContain(collect.request_id);
    expect(signals.find((s) => s.rule === 'carried_fast_submit')?.score).toBe(20);
    // The signals are the explanation: they add up to the score.
    expect(signals.reduce((n, s) => n + s.score, 0)).toBe(d.risk_score);

    // The recorded /verify decision names the browser decisions it is linked to.
    const row = await t.ctx.database.db
      .selectFrom('decisions')
      .selectAll()
      .where('id', '=', d.request_id)
      .executeTakeFirstOrThrow();
    const features = JSON.parse(unpackDecision(row).features);
    expect(features.browser_session).toMatchObject({
      id: collect.request_id,
      latest: collect.request_id,
      risk: collect.risk_score,
    });
  });

  it('carries the riskiest browser decision of the session, and names the latest', async () => {
    const { token, collect } = await page('acct_two', { cdp: true }, 900);
    const later = await post('/collect', browser(), {
      context: { event_type: 'page_view', account_id: 'acct_two' },
      token,
      fingerprint: FINGERPRINT,
      behavior: behavior(30_000),
      environment: { timestamp: t.ctx.now() },
    });
    const second = later.json().data;
    expect(second.risk_score).toBeLessThan(collect.risk_score);
    const d = (await verify(token, 'acct_two')).json().data;
    expect(d.risk_score).toBeGreaterThanOrEqual(collect.risk_score);
    const row = await t.ctx.database.db
      .selectFrom('decisions')
      .selectAll()
      .where('id', '=', d.request_id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(unpackDecision(row).features).browser_session).toMatchObject({
      id: collect.request_id,
      latest: second.request_id,
    });
    // Browser decisions do not record the session (only the backend's decision names it).
    const browserRow = await t.ctx.database.db
      .selectFrom('decisions')
      .select('features')
      .where('id', '=', second.request_id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(browserRow.features)).browser_session).toBeUndefined();
  });

  it('evidence seen on both sides counts once, and a clean session carries nothing', async () => {
    const { token, collect } = await page('acct_clean', {}, 12_000);
    expect(collect.action).toBe('allow');
    const d = (await verify(token, 'acct_clean')).json().data;
    expect((d.signals as Signal[]).filter((s) => s.rule.startsWith('carried_'))).toEqual(
      (collect.signals as Signal[])
        .filter((s) => !(d.signals as Signal[]).some((o) => o.rule === s.rule))
        .map((s) => expect.objectContaining({ rule: `carried_${s.rule}`, score: s.score })),
    );
    expect(d.action).toBe('allow');
  });

  it("carries default-rule evidence only: the backend's event meets custom rules and lists itself", async () => {
    const analyst = (await addTestUser(t.ctx, { workspaceId: w.workspaceId, role: 'analyst' })).headers;
    const rule = await t.app.inject({
      method: 'POST',
      url: `/api/rules?siteId=${w.site.id}`,
      headers: analyst,
      payload: {
        name: 'browser_promo_watch',
        description: 'Browser promo claims from this account',
        eventTypes: ['promo_claim'],
        expression: 'event.surface == "browser" && event.account_id == "acct_rule"',
        score: 40,
      },
    });
    expect(rule.statusCode).toBe(201);
    const fp = await post('/fingerprint', browser(), { fingerprint: FINGERPRINT });
    const token = fp.json().data.token as string;
    const collect = await post('/collect', browser(), {
      context: { event_type: 'promo_claim', account_id: 'acct_rule' },
      token,
      fingerprint: FINGERPRINT,
      behavior: behavior(900),
      environment: { timestamp: t.ctx.now(), cdp: true },
    });
    const browserRules = (collect.json().data.signals as Signal[]).map((s) => s.rule);
    expect(browserRules).toEqual(expect.arrayContaining(['custom:browser_promo_watch', 'automation_cdp']));
    const d = (
      await post('/verify', serverHeaders(w.site), {
        token,
        context: {
          event_type: 'promo_claim',
          account_id: 'acct_rule',
          ip_address: '127.0.0.1',
          user_agent: UA,
        },
      })
    ).json().data;
    const rules = (d.signals as Signal[]).map((s) => s.rule);
    expect(rules).toContain('carried_automation_cdp');
    expect(rules.some((r) => r.includes('browser_promo_watch'))).toBe(false);
  });

  it('a token from another page session carries nothing of this one', async () => {
    await page('acct_other', { cdp: true }, 900);
    const fp = await post('/fingerprint', browser(), { fingerprint: FINGERPRINT });
    const d = (await verify(fp.json().data.token, 'acct_other')).json().data;
    expect((d.signals as Signal[]).some((s) => s.rule.startsWith('carried_'))).toBe(false);
  });
});
