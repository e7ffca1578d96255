import { describe, expect, it } from 'vitest';
import { registerFingerprint } from '../../fingerprint/register.ts';
import { useClockedContext } from '../../testing/clocked-context.ts';
import { testEngine } from '../../testing/scoring-engine.ts';
import { baseFeatures, FINGERPRINT, HUMAN_UA, makeInput, rules, testSite } from '../test-fixtures.ts';
import { carryBrowserSession, carryRecentRisk, session } from './session.ts';

describe('token reuse', () => {
  it('is silent for one account and flags a token shared by many accounts', () => {
    const f = (h: object) => session.evaluate(baseFeatures({ token_id: 'tok' }, h));
    expect(f({ token_accounts_24h: 1, token_events_1h: 6 })).toEqual([]);
    expect(f({ token_accounts_24h: 2 })).toEqual([]);
    expect(f({ token_accounts_24h: 3 })[0]).toMatchObject({ rule: 'token_reused', score: 50 });
    expect(f({ token_accounts_24h: 12 })[0]).toMatchObject({ rule: 'token_reused', score: 70 });
    expect(f({ token_accounts_24h: 1, token_events_1h: 45 })[0]).toMatchObject({ score: 35 });
    expect(session.evaluate(baseFeatures({ token_id: '' }, { token_accounts_24h: 9 }))).toEqual([]);
  });
});

describe('carried risk', () => {
  const own = (score: number) => [{ rule: 'x', score, description: '' }];
  it('raises the event to the recent evidence risk of its token, never above it', () => {
    const f = baseFeatures({ token_id: 'tok' }, { token_recent_risk: 80 });
    expect(carryRecentRisk(f, own(0))?.score).toBe(80);
    expect(carryRecentRisk(f, own(30))?.score).toBe(50);
    expect(carryRecentRisk(f, own(-15))?.score).toBe(95);
    expect(carryRecentRisk(f, own(90))).toBeNull();
  });
  it('ignores low recent risk, and carries at most 60 through a desktop device alone', () => {
    expect(carryRecentRisk(baseFeatures({ token_id: 'tok' }, { token_recent_risk: 45 }), [])).toBeNull();
    const dev = baseFeatures({ token_id: '' }, { device_recent_risk: 100 });
    expect(carryRecentRisk(dev, [])?.score).toBe(60);
    expect(carryRecentRisk({ ...dev, ua_mobile: true }, [])).toBeNull();
  });
});

describe('carried browser session', () => {
  const sig = (rule: string, score: number) => ({ rule, score, description: rule });
  const browser = {
    id: 'dec_browser',
    latest: 'dec_latest',
    risk: 40,
    signals: [
      ['automation_cdp', 35, 'A DevTools client.'],
      ['fast_submit', 20, 'Submitted 900 ms after load.'],
      ['behavior_humanlike', -15, 'Varied.'],
    ] as Array<[string, number, string]>,
  };
  const carry = (own: ReturnType<typeof sig>[], over: object = {}) =>
    carryBrowserSession(baseFeatures({ token_id: 'tok', browser_session: browser, ...over }), own);

  it('carries every browser signal as carried_<rule>, naming the browser decision', () => {
    const out = carry([]);
    expect(out.map((s) => [s.rule, s.score])).toEqual([
      ['carried_automation_cdp', 35],
      ['carried_fast_submit', 20],
      ['carried_behavior_humanlike', -15],
    ]);
    expect(out[0]!.description).toBe('Browser decision dec_browser: A DevTools client.');
  });
  it('counts a rule this decision has itself once, and tops up to the browser risk', () => {
    // fast_submit is this decision's own; its trust (-30) would leave it under the browser's 40.
    const out = carry([sig('fast_submit', 20), sig('device_trusted', -30)]);
    expect(out.map((s) => s.rule)).toEqual([
      'carried_automation_cdp',
      'carried_behavior_humanlike',
      'browser_session',
    ]);
    const total = [20, -30, ...out.map((s) => s.score)].reduce((a, b) => a + b, 0);
    expect(total).toBe(40);
  });
  it('only on the server surface with a token', () => {
    expect(carry([], { surface: 'browser' })).toEqual([]);
    expect(carry([], { token_id: '' })).toEqual([]);
    expect(carryBrowserSession(baseFeatures({ token_id: 'tok' }), [])).toEqual([]);
  });
});

describe('session across /collect and /verify (engine)', () => {
  const t = useClockedContext();
  const site = testSite('site_session');

  it("gives the backend's /verify the risk its browser call showed, without counting it twice", async () => {
    const engine = testEngine(t.ctx);
    const { token } = await registerFingerprint(t.ctx, site, { fingerprint: FINGERPRINT });
    // The page: CDP attached and patched natives, then the backend verifies the login.
    const collect = makeInput(
      t.ctx,
      {
        token,
        fingerprint: FINGERPRINT,
        environment: { cdp: true, tampered_functions: ['HTMLCanvasElement.toDataURL'] },
        context: { event_type: 'login', account_id: 'a1' },
      },
      { site, surface: 'browser', userAgent: HUMAN_UA },
    );
    const first = await engine.score(collect);
    await engine.afterRecord?.(collect, first);
    // cdp 35 + tampering 30 + behavior_missing 10.
    expect(first.risk_score).toBe(75);
    t.clock += 5_000;
    const verify = makeInput(t.ctx, { token, context: { event_type: 'login', account_id: 'a1' } }, { site });
    const second = await engine.score(verify);
    expect(rules(second)).toEqual(
      expect.arrayContaining(['carried_automation_cdp', 'carried_native_function_tampering']),
    );
    expect(second.risk_score).toBe(75);
    await engine.afterRecord?.(verify, second);
    // The same evidence again is not added on top of itself.
    t.clock += 5_000;
    const again = await engine.score({ ...collect, decisionId: 'again', now: t.clock });
    expect(again.risk_score).toBe(75);
  });

  it('hard automation found in the browser keeps the backend decision a bot', async () => {
    const engine = testEngine(t.ctx);
    const { token } = await registerFingerprint(t.ctx, site, { fingerprint: FINGERPRINT });
    const collect = makeInput(
      t.ctx,
      { token, fingerprint: FINGERPRINT, environment: { webdriver: true }, context: { account_id: 'a2' } },
      { site, surface: 'browser', userAgent: HUMAN_UA },
    );
    const first = await engine.score(collect);
    await engine.afterRecord?.(collect, first);
    expect(first.classification).toBe('bot');
    const second = await engine.score(makeInput(t.ctx, { token, context: { account_id: 'a2' } }, { site }));
    expect(rules(second)).toContain('carried_automation_webdriver');
    expect(second.classification).toBe('bot');
    expect(second.action).toBe('block');
  });

  it('flags a captured token replayed for many accounts', async () => {
    const engine = testEngine(t.ctx);
    const { token } = await registerFingerprint(t.ctx, site, { fingerprint: FINGERPRINT });
    const scores: number[] = [];
    for (let i = 0; i < 6; i++) {
      t.clock += 20_000;
      const r = await engine.score(
        makeInput(t.ctx, { token, context: { event_type: 'login', account_id: `victim_${i}` } }, { site }),
      );
      scores.push(r.risk_score);
    }
    expect(scores.slice(0, 2).every((s) => s < 30)).toBe(true);
    expect(scores.slice(4).every((s) => s >= 60)).toBe(true);
  });
});
