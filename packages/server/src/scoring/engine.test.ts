import { solveChallenge } from 'altcha-lib/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChallengeDescriptor, issueChallenge } from '../challenge/index.ts';
import type { AppContext } from '../context.ts';
import { registerFingerprint } from '../fingerprint/register.ts';
import { createTestContext } from '../testing/context.ts';
import { testEngine } from '../testing/scoring-engine.ts';
import type { SignalFamily } from './signals/types.ts';
import { FINGERPRINT, makeInput, rules, testSite } from './test-fixtures.ts';

let ctx: AppContext;
let clock: number;
beforeEach(async () => {
  clock = 1_700_000_000_000;
  ctx = await createTestContext({ env: { WARDEN_POW_FLOOR: '4' }, now: () => clock });
});
afterEach(async () => {
  await ctx.hotState.close();
  await ctx.database.close();
});

describe('engine', () => {
  it('scores a context-only request: device "" and a moderate missing-evidence signal', async () => {
    const r = await testEngine(ctx).score(makeInput(ctx, {}));
    expect(r.device_id).toBe('');
    expect(rules(r)).toEqual(['no_device_evidence']);
    expect(r).toMatchObject({ risk_score: 15, risk_level: 'low', classification: 'human', action: 'allow' });
    expect(r.ruleset_version).toMatch(/^rs_[0-9a-f]{12}$/);
    expect(r.challenge).toBeUndefined();
  });

  it('uses the device of a valid token and adds no token penalty', async () => {
    const site = testSite();
    const reg = await registerFingerprint(ctx, site, { fingerprint: FINGERPRINT });
    const r = await testEngine(ctx).score(makeInput(ctx, { token: reg.token }, { site }));
    expect(r.device_id).toBe(reg.device_id);
    expect(rules(r)).toEqual([]);
  });

  it('treats expired, foreign and garbage tokens as evidence (injected clock)', async () => {
    const engine = testEngine(ctx);
    const reg = await registerFingerprint(ctx, testSite(), { fingerprint: FINGERPRINT });
    clock += 10 * 60_000;
    const expired = await engine.score(makeInput(ctx, { token: reg.token }));
    expect(rules(expired)).toContain('token_expired');
    const foreign = await engine.score(
      makeInput(ctx, { token: reg.token }, { site: testSite('site_other') }),
    );
    expect(rules(foreign)).toContain('token_site_mismatch');
    const garbage = await engine.score(makeInput(ctx, { token: 'not-a-token', fingerprint: FINGERPRINT }));
    expect(rules(garbage)).toEqual(['token_invalid']);
    expect(garbage.device_id).toMatch(/^dev_/);
  });

  it('classifies webdriver as a bot and blocks it', async () => {
    const r = await testEngine(ctx).score(
      makeInput(ctx, { fingerprint: FINGERPRINT, environment: { webdriver: true } }, { surface: 'browser' }),
    );
    expect(r.classification).toBe('bot');
    expect(['block', 'challenge']).toContain(r.action);
    expect(r.risk_level).toBe('critical');
  });

  it('never allows a bot: low-score hard evidence gets a solvable challenge', async () => {
    const weakHard: SignalFamily = {
      name: 'weak',
      rules: { weak_hard: { score: 5, hard: true, description: 'test' } },
      evaluate: () => [{ rule: 'weak_hard', score: 5, description: 'test' }],
    };
    const r = await testEngine(ctx, { families: [weakHard] }).score(makeInput(ctx, {}));
    expect(r).toMatchObject({ risk_level: 'low', classification: 'bot', action: 'challenge' });
    const ch = r.challenge as unknown as ChallengeDescriptor;
    const solved = await solveChallenge(ch.challenge, ch.salt, ch.algorithm, ch.maxnumber).promise;
    expect(solved?.number).toBeTypeOf('number');
  });

  it('page_view at medium risk is allowed, a login at the same risk is reviewed', async () => {
    const env = { cdp: true };
    const engine = testEngine(ctx);
    const pv = await engine.score(makeInput(ctx, { environment: env, context: { event_type: 'page_view' } }));
    expect(pv.risk_level).toBe('medium');
    expect(pv.action).toBe('allow');
    const login = await engine.score(makeInput(ctx, { environment: env, context: { account_id: 'b' } }));
    expect(login.risk_level).toBe('medium');
    expect(login.action).toBe('review');
  });

  it('challenges at high risk with a risk-raised difficulty', async () => {
    const r = await testEngine(ctx).score(makeInput(ctx, { environment: { cdp: true } }, { userAgent: '' }));
    expect(r.risk_level).toBe('high');
    expect(r.action).toBe('challenge');
    expect((r.challenge as unknown as ChallengeDescriptor).difficulty).toBe(6);
  });

  it('consumes a proof-of-work as trust evidence, once', async () => {
    const site = testSite();
    const engine = testEngine(ctx);
    const ch = await issueChallenge(ctx, site, { difficulty: 8, ip: '203.0.113.7' });
    const solved = await solveChallenge(ch.challenge, ch.salt, ch.algorithm, ch.maxnumber).promise;
    const environment = { pow: { challenge_id: ch.challenge_id, nonce: String(solved?.number) } };
    const first = await engine.score(makeInput(ctx, { environment, fingerprint: FINGERPRINT }, { site }));
    expect(first.signals).toEqual([expect.objectContaining({ rule: 'pow_verified', score: -20 })]);
    expect(first.risk_score).toBe(0);
    const second = await engine.score(makeInput(ctx, { environment, fingerprint: FINGERPRINT }, { site }));
    expect(rules(second)).toEqual(['pow_replayed']);
  });

  it('flags a replayed nonce and stale timestamps', async () => {
    const engine = testEngine(ctx);
    const environment = { nonce: 'n-123', timestamp: clock - 1000 };
    expect(rules(await engine.score(makeInput(ctx, { environment, fingerprint: FINGERPRINT })))).toEqual([]);
    expect(rules(await engine.score(makeInput(ctx, { environment, fingerprint: FINGERPRINT })))).toEqual([
      'nonce_replayed',
    ]);
    const stale = { nonce: 'n-456', timestamp: clock - 3_600_000 };
    expect(
      rules(await engine.score(makeInput(ctx, { environment: stale, fingerprint: FINGERPRINT }))),
    ).toEqual(['evidence_stale']);
  });

  it('detects credential stuffing from failed logins per IP', async () => {
    const engine = testEngine(ctx);
    let last: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await engine.score(
        makeInput(ctx, {
          fingerprint: FINGERPRINT,
          context: { account_id: `victim_${i}`, login_succeeded: false },
        }),
      );
      last = rules(r);
    }
    expect(last).toContain('failed_logins_ip');
    expect(last).toContain('accounts_per_ip');
    expect(last).toContain('accounts_per_device');
  });

  it('detects card testing', async () => {
    const engine = testEngine(ctx);
    let last: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await engine.score(
        makeInput(ctx, {
          fingerprint: FINGERPRINT,
          context: { event_type: 'checkout', account_id: 'carder', payment_hash: `pm_${i}`, order_amount: 1 },
        }),
      );
      last = rules(r);
    }
    expect(last).toEqual(expect.arrayContaining(['payments_per_account', 'payments_per_device']));
  });

  it('fails open when a family throws', async () => {
    const broken: SignalFamily = {
      name: 'broken',
      rules: {},
      evaluate: () => {
        throw new Error('boom');
      },
    };
    const r = await testEngine(ctx, { families: [broken] }).score(makeInput(ctx, {}));
    expect(r).toMatchObject({ risk_score: 0, action: 'allow' });
  });
});
