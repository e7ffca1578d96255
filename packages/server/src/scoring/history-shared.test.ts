import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { registerFingerprint } from '../fingerprint/register.ts';
import { createTestContext, type HotStateKind, openTestHotState, testHotStates } from '../testing/context.ts';
import { testEngine } from '../testing/scoring-engine.ts';
import type { HistoryCounts } from './history.ts';
import { HOUR } from './history-keys.ts';
import { FINGERPRINT, insertSite, makeInput, recordDecision, testSite } from './test-fixtures.ts';

/**
 * History counters in a hot state that several processes share (Redis in scale mode; one
 * in-process store stands in for it too), each process an engine of its own, on one clock.
 */
const site = testSite('site_shared');
const history = (r: { features: Record<string, unknown> }) => r.features.history as HistoryCounts;
const contexts: AppContext[] = [];
afterEach(async () => {
  for (const ctx of contexts.splice(0)) {
    await ctx.hotState.close();
    await ctx.database.close();
  }
});

async function clockedContext(kind: HotStateKind, clock: { now: number }): Promise<AppContext> {
  const ctx = await createTestContext({ hotState: kind, now: () => clock.now });
  contexts.push(ctx);
  await insertSite(ctx, site);
  return ctx;
}

describe.each(testHotStates())('history on a shared %s hot state', (kind) => {
  const failedLogin = (ctx: AppContext, account: string) =>
    makeInput(
      ctx,
      { context: { account_id: account, login_succeeded: false } },
      { site, ip: '203.0.113.50' },
    );

  it('never counts a recorded decision twice when a process starts long after the first rebuild', async () => {
    // The hour's start, so that the 1-hour sliding window counts exactly (no previous bucket).
    const hour = Math.floor(Date.now() / HOUR) * HOUR;
    const clock = { now: hour + 1 - 25 * HOUR };
    const ctx = await clockedContext(kind, clock);
    // Process 1 starts (its first event rebuilds the site: nothing recorded yet) and runs on.
    const first = testEngine(ctx);
    await first.score(makeInput(ctx, { context: { account_id: 'early' } }, { site, ip: '198.51.100.1' }));
    clock.now = hour + 1;
    let counts: HistoryCounts | undefined;
    for (let i = 0; i < 43; i++) {
      const input = failedLogin(ctx, `victim_${i}`);
      const result = await first.score(input);
      await recordDecision(ctx, input, result);
      counts = history(result);
    }
    expect(counts?.failed_logins_ip_1h).toBe(43);
    // 25 h after process 1 started, process 2 starts on the same hot state and database.
    clock.now = hour + 2;
    const second = await testEngine(ctx).score(failedLogin(ctx, 'victim_43'));
    expect(history(second)).toMatchObject({ failed_logins_ip_1h: 44, accounts_per_ip_24h: 44, ip_1h: 44 });
    // And process 1 goes on counting from the same totals.
    expect(history(await first.score(failedLogin(ctx, 'victim_44'))).failed_logins_ip_1h).toBe(45);
  });

  it('rebuilds once when the hot state lost its counters (a Redis without its data)', async () => {
    // Ahead of the wall clock: Redis expires keys on its own clock, and the rebuild's claim is short.
    const hour = Math.ceil(Date.now() / HOUR) * HOUR;
    const clock = { now: hour + 1 };
    const ctx = await clockedContext(kind, clock);
    const first = testEngine(ctx);
    for (let i = 0; i < 5; i++) {
      const input = failedLogin(ctx, `victim_${i}`);
      await recordDecision(ctx, input, await first.score(input));
    }
    await ctx.hotState.close();
    ctx.hotState = openTestHotState(kind, () => clock.now);
    clock.now = hour + 2;
    // Two processes start together on the empty store: one rebuilds (the other counts on at once,
    // its first answer without the rebuilt counts), and the decisions are counted once.
    const [a, b] = await Promise.all([
      testEngine(ctx).score(failedLogin(ctx, 'victim_5')),
      testEngine(ctx).score(failedLogin(ctx, 'victim_6')),
    ]);
    expect(Math.max(history(a).failed_logins_ip_1h, history(b).failed_logins_ip_1h)).toBe(7);
    const third = await testEngine(ctx).score(failedLogin(ctx, 'victim_7'));
    expect(history(third).failed_logins_ip_1h).toBe(8);
  });

  it('does not rebuild on top of counters kept by an earlier version (its 24 h marker)', async () => {
    const hour = Math.ceil(Date.now() / HOUR) * HOUR;
    const clock = { now: hour + 1 };
    const ctx = await clockedContext(kind, clock);
    // What an earlier version left: its marker, and counters of decisions it recorded (counted
    // here by this version with the counted marker standing in for that version's, then removed).
    await ctx.hotState.claimOnce(`rebuilt:${site.id}`, 24 * HOUR);
    await ctx.hotState.set(`counted:${site.id}`, 'earlier version', HOUR);
    const earlier = testEngine(ctx);
    for (let i = 0; i < 5; i++) {
      const input = failedLogin(ctx, `victim_${i}`);
      await recordDecision(ctx, input, await earlier.score(input));
    }
    // The first process of this version starts.
    await ctx.hotState.del(`counted:${site.id}`);
    const upgraded = await testEngine(ctx).score(failedLogin(ctx, 'victim_5'));
    expect(history(upgraded).failed_logins_ip_1h).toBe(6);
  });

  it('shows every process that the site uses the SDK within 1 s', async () => {
    const clock = { now: Date.now() };
    const ctx = await clockedContext(kind, clock);
    const tokenless = () => makeInput(ctx, { context: { account_id: 'acct_sdk' } }, { site });
    const a = testEngine(ctx);
    const b = testEngine(ctx);
    expect(history(await a.score(tokenless())).site_uses_sdk).toBe(false);
    // Process b sees the site's backend send a valid token: the site integrates the SDK.
    const { token } = await registerFingerprint(ctx, site, { fingerprint: FINGERPRINT });
    const withToken = await b.score(makeInput(ctx, { token, context: { account_id: 'acct_sdk' } }, { site }));
    expect(history(withToken).site_uses_sdk).toBe(true);
    clock.now += 1_000;
    expect(history(await a.score(tokenless())).site_uses_sdk).toBe(true);
  });

  it('marks the event types the backend sends tokens with, and keeps them across a restart', async () => {
    const clock = { now: Date.now() };
    const ctx = await clockedContext(kind, clock);
    const engine = testEngine(ctx);
    const { token } = await registerFingerprint(ctx, site, { fingerprint: FINGERPRINT });
    const checkout = makeInput(
      ctx,
      { token, context: { event_type: 'checkout', account_id: 'a' } },
      { site },
    );
    await recordDecision(ctx, checkout, await engine.score(checkout));
    const signup = (c: AppContext) =>
      makeInput(c, { context: { event_type: 'signup', account_id: 'b' } }, { site });
    const tokenlessCheckout = (c: AppContext) =>
      makeInput(c, { context: { event_type: 'checkout', account_id: 'b' } }, { site });
    // An ALTCHA-only sign-up on a site whose checkout runs the SDK: not charged for the token.
    let r = await engine.score(signup(ctx));
    expect(history(r)).toMatchObject({ site_uses_sdk: true, event_type_uses_sdk: false });
    expect(r.signals.map((s) => s.rule)).not.toContain('token_missing');
    r = await engine.score(tokenlessCheckout(ctx));
    expect(history(r)).toMatchObject({ site_uses_sdk: true, event_type_uses_sdk: true });
    expect(r.signals.map((s) => s.rule)).toContain('token_missing');
    // A restart on a hot state without its data rebuilds both markers from the recorded decision.
    await ctx.hotState.close();
    ctx.hotState = openTestHotState(kind, () => clock.now);
    const restarted = testEngine(ctx);
    r = await restarted.score(tokenlessCheckout(ctx));
    expect(r.signals.map((s) => s.rule)).toContain('token_missing');
    expect(history(await restarted.score(signup(ctx))).event_type_uses_sdk).toBe(false);
  });
});
