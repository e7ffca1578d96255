import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { registerFingerprint } from '../fingerprint/register.ts';
import { MemoryHotState } from '../state/memory.ts';
import { createTestContext } from '../testing/context.ts';
import { testEngine } from '../testing/scoring-engine.ts';
import type { HistoryCounts } from './history.ts';
import { FINGERPRINT, insertSite, makeInput, recordDecision, testSite } from './test-fixtures.ts';

let ctx: AppContext;
const site = testSite('site_hist');
beforeEach(async () => {
  ctx = await createTestContext();
  await insertSite(ctx, site);
});
afterEach(async () => {
  await ctx.hotState.close();
  await ctx.database.close();
});

const history = (r: { features: Record<string, unknown> }) => r.features.history as HistoryCounts;

/**
 * Stop the context's clock (and give it an in-memory hot state on that clock): on the wall clock, a
 * minute boundary in mid-test shrinks the sliding 1-minute estimates.
 */
async function pinClock(clock = 1_700_000_000_000): Promise<number> {
  ctx.now = () => clock;
  await ctx.hotState.close();
  ctx.hotState = new MemoryHotState(() => clock);
  return clock;
}

describe('velocity and history across a restart', () => {
  it('rebuilds counters from recorded decisions, so counts match', async () => {
    const clock = await pinClock();
    const engine = testEngine(ctx);
    let before: HistoryCounts | undefined;
    for (let i = 0; i < 5; i++) {
      const input = makeInput(
        ctx,
        {
          fingerprint: FINGERPRINT,
          context: { account_id: `acct_${i % 2}`, login_succeeded: false, payment_hash: `pm_${i}` },
        },
        { site },
      );
      const result = await engine.score(input);
      await recordDecision(ctx, input, result);
      await engine.afterRecord?.(input, result);
      before = history(result);
    }
    expect(before).toMatchObject({
      ip_1m: 5,
      account_1h: 3,
      failed_logins_ip_1h: 5,
      accounts_per_device_24h: 2,
      accounts_per_ip_24h: 2,
      payments_per_account_24h: 3,
      payments_per_device_24h: 5,
      device_events_30d: 5,
    });

    // "Restart": same database, empty hot state, new engine.
    const restarted: AppContext = { ...ctx, hotState: new MemoryHotState(() => clock) };
    const input = makeInput(
      restarted,
      {
        fingerprint: FINGERPRINT,
        context: { account_id: 'acct_0', login_succeeded: false, payment_hash: 'pm_0' },
      },
      { site },
    );
    const after = history(await testEngine(restarted).score(input));
    expect(after).toMatchObject({
      ip_1m: 6,
      ip_1h: 6,
      account_1h: 4,
      failed_logins_ip_1h: 6,
      failed_logins_account_1h: 4,
      accounts_per_device_24h: 2,
      accounts_per_ip_24h: 2,
      payments_per_account_24h: 3,
      payments_per_device_24h: 5,
      device_events_30d: 6,
    });
    expect(after.device_first_seen).toBe(before?.device_first_seen);
    await restarted.hotState.close();
  });

  it('does not rebuild twice when hot state kept its counters (scale mode)', async () => {
    await pinClock();
    const engine = testEngine(ctx);
    const input = makeInput(ctx, { fingerprint: FINGERPRINT }, { site });
    await recordDecision(ctx, input, await engine.score(input));
    // A second process on the same (shared) hot state.
    const second = makeInput(ctx, { fingerprint: FINGERPRINT }, { site });
    expect(history(await testEngine(ctx).score(second)).ip_1m).toBe(2);
  });
});

describe('replayed evidence across a restart', () => {
  it('remembers the environment nonces of recorded decisions', async () => {
    const clock = await pinClock();
    const environment = { nonce: 'n-restart-1', timestamp: clock };
    const first = makeInput(ctx, { fingerprint: FINGERPRINT, environment }, { site });
    const result = await testEngine(ctx).score(first);
    expect(result.features.nonce).toBe('fresh');
    await recordDecision(ctx, first, result);

    const restarted: AppContext = { ...ctx, hotState: new MemoryHotState(() => clock) };
    const engine = testEngine(restarted);
    const replay = await engine.score(
      makeInput(restarted, { fingerprint: FINGERPRINT, environment }, { site }),
    );
    expect(replay.features.nonce).toBe('replayed');
    expect(replay.signals.map((s) => s.rule)).toContain('nonce_replayed');
    const fresh = await engine.score(
      makeInput(
        restarted,
        { fingerprint: FINGERPRINT, environment: { ...environment, nonce: 'n-2' } },
        { site },
      ),
    );
    expect(fresh.features.nonce).toBe('fresh');
    await restarted.hotState.close();
  });
});

describe('hardware-profile counters across a restart', () => {
  it('rebuilds them, and the device → profile map the server side needs, from recorded decisions', async () => {
    let clock = 1_700_000_000_000;
    ctx.now = () => clock;
    await ctx.hotState.close();
    ctx.hotState = new MemoryHotState(() => clock);
    const engine = testEngine(ctx);
    // An anti-detect browser: one machine, new canvas/audio/WebGL noise and a new card each time.
    const attempt = async (i: number, e = engine, c = ctx) => {
      const fingerprint = {
        ...FINGERPRINT,
        canvas_hash: `noise-c${i}`,
        audio_hash: `noise-a${i}`,
        webgl: { ...FINGERPRINT.webgl, hash: `noise-w${i}` },
      };
      const { token } = await registerFingerprint(c, site, { fingerprint });
      const context = { event_type: 'checkout' as const, account_id: `ct_${i}`, order_amount: 1.25 };
      const collect = makeInput(
        c,
        { token, fingerprint, context },
        { site, surface: 'browser', ip: `73.1.${i}.9`, now: clock },
      );
      await recordDecision(c, collect, await e.score(collect));
      clock += 500;
      return { token, context, ip: `73.1.${i}.9` };
    };
    const verify = async (
      a: { token: string; context: { event_type: 'checkout'; account_id: string; order_amount: number } },
      i: number,
      e = engine,
      c = ctx,
    ) => {
      const input = makeInput(
        c,
        { token: a.token, context: { ...a.context, payment_hash: `pm_${i}` } },
        { site, ip: `73.1.${i}.9`, now: clock },
      );
      const result = await e.score(input);
      await recordDecision(c, input, result);
      clock += 30_000;
      return result;
    };
    for (let i = 0; i < 4; i++) await verify(await attempt(i), i);
    // The 5th page has scored its checkout; then the process restarts before the backend's /verify.
    const fifth = await attempt(4);
    const restarted: AppContext = { ...ctx, hotState: new MemoryHotState(() => clock) };
    const after = await verify(fifth, 4, testEngine(restarted), restarted);
    expect(after.features.hardware_profile).toMatch(/^hw_/);
    expect(history(after)).toMatchObject({ hw_devices_1h: 5, hw_payments_1h: 5, hw_small_payments_1h: 5 });
    expect(after.signals.map((s) => s.rule)).toContain('hardware_card_testing');
    await restarted.hotState.close();
  });
});
