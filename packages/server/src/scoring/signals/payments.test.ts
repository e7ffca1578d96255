import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.ts';
import { registerFingerprint } from '../../fingerprint/register.ts';
import { MemoryHotState } from '../../state/memory.ts';
import { createTestContext } from '../../testing/context.ts';
import { testEngine } from '../../testing/scoring-engine.ts';
import type { EngineResult, ScoringEngine } from '../engine-types.ts';
import type { HistoryCounts } from '../history.ts';
import { baseFeatures, FINGERPRINT, HUMAN_UA, makeInput, rules, testSite } from '../test-fixtures.ts';
import { payments } from './payments.ts';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPHONE = {
  v: 1,
  user_agent: IPHONE_UA,
  platform: 'iPhone',
  languages: ['en-US'],
  timezone: 'America/New_York',
  screen: { width: 393, height: 852, color_depth: 24, pixel_ratio: 3 },
  hardware_concurrency: 4,
  max_touch_points: 5,
  canvas_hash: 'ios17-canvas',
  webgl: { unmasked_vendor: 'Apple Inc.', unmasked_renderer: 'Apple GPU', hash: 'ios17-webgl' },
  audio_hash: 'ios17-audio',
  math_hash: 'jsc',
  fonts: ['Arial', 'Courier New', 'Georgia', 'Helvetica', 'Helvetica Neue', 'Times New Roman', 'Verdana'],
};

const hex = () => randomBytes(8).toString('hex');
const hw = (r: EngineResult) => r.features.history as HistoryCounts;

/** An anti-detect browser: the same machine, with fresh canvas, audio and WebGL image noise. */
function noisy(fp: typeof FINGERPRINT) {
  return {
    ...fp,
    canvas_hash: `noise-${hex()}`,
    audio_hash: `noise-${hex()}`,
    webgl: { ...fp.webgl, hash: `noise-${hex()}` },
  };
}

describe('hardware_card_testing (features)', () => {
  const checkout = { event_type: 'checkout' as const, has_payment: true };
  const run = (h: Partial<HistoryCounts>, f: object = {}) =>
    payments
      .evaluate(baseFeatures({ ...checkout, ...f }, h))
      .filter((s) => s.rule === 'hardware_card_testing')
      .map((s) => s.score);

  it('scores small payments with many cards on a profile seen as several devices in 1 h', () => {
    expect(run({ hw_devices_1h: 4, hw_payments_1h: 4, hw_small_payments_1h: 4 })).toEqual([60]);
    expect(run({ hw_devices_1h: 9, hw_payments_1h: 9, hw_small_payments_1h: 7 })).toEqual([75]);
  });
  it('needs the fingerprint to rotate, the cards to differ and the amounts to be small', () => {
    // One device: payments_per_device already speaks for it.
    expect(run({ hw_devices_1h: 2, hw_payments_1h: 6, hw_small_payments_1h: 6 })).toEqual([]);
    // One card retried under a canvas-blocking extension (a new device id per page).
    expect(run({ hw_devices_1h: 6, hw_payments_1h: 1, hw_small_payments_1h: 6 })).toEqual([]);
    // Identical office machines paying normal prices.
    expect(run({ hw_devices_1h: 6, hw_payments_1h: 6, hw_small_payments_1h: 0 })).toEqual([]);
    // Phones: identical models of many customers share a profile.
    const burst = { hw_devices_1h: 6, hw_payments_1h: 6, hw_small_payments_1h: 6 };
    expect(run(burst, { ua_mobile: true })).toEqual([]);
    // Decisions recorded before the counters existed carry none.
    expect(run({})).toEqual([]);
  });
});

describe('card testing from one machine rotating its fingerprint (engine)', () => {
  let ctx: AppContext;
  let clock: number;
  let engine: ScoringEngine;
  const site = testSite('site_cards');
  beforeEach(async () => {
    ctx = await createTestContext();
    clock = 1_700_000_000_000;
    ctx.now = () => clock;
    await ctx.hotState.close();
    ctx.hotState = new MemoryHotState(() => clock);
    engine = testEngine(ctx);
  });
  afterEach(async () => {
    await ctx.hotState.close();
    await ctx.database.close();
  });

  let ipN = 0;
  /**
   * One checkout the way the SDK and the shop send it: POST /fingerprint, /collect from the page
   * (no payment hash), then the backend's /verify with the token, the card's hash and the amount.
   */
  async function checkout(
    fingerprint: Record<string, unknown>,
    o: { account: string; card: string; amount: number; ua?: string; ip?: string },
  ): Promise<{ browser: EngineResult; server: EngineResult }> {
    // A residential address of its own per attempt (a rotating proxy).
    ipN++;
    const ip = o.ip ?? `73.${(ipN * 37) % 250}.${(ipN * 11) % 250}.${(ipN % 250) + 1}`;
    const userAgent = o.ua ?? HUMAN_UA;
    const { token } = await registerFingerprint(ctx, site, { fingerprint });
    clock += 8_000;
    const context = { event_type: 'checkout' as const, account_id: o.account, order_amount: o.amount };
    const collect = makeInput(
      ctx,
      { token, fingerprint, context },
      { site, surface: 'browser', ip, userAgent },
    );
    const browser = await engine.score(collect);
    await engine.afterRecord?.(collect, browser);
    clock += 300;
    const verify = makeInput(
      ctx,
      { token, context: { ...context, payment_hash: o.card } },
      { site, ip, userAgent },
    );
    const server = await engine.score(verify);
    await engine.afterRecord?.(verify, server);
    clock += 30_000;
    return { browser, server };
  }

  it('links the attempts through the hardware profile and challenges them from the 4th card', async () => {
    const seen: Array<{ browser: EngineResult; server: EngineResult }> = [];
    let account = '';
    for (let i = 0; i < 8; i++) {
      if (i % 3 === 0) account = `ct_${hex()}`;
      seen.push(await checkout(noisy(FINGERPRINT), { account, card: `pm_${hex()}`, amount: 1.5 }));
    }
    // Every attempt is a new device on a new IP: the device and IP counters see one card each.
    for (const { server } of seen) {
      expect(rules(server)).not.toContain('payments_per_device');
      expect(rules(server)).not.toContain('payments_per_ip');
    }
    expect(hw(seen[3]!.server)).toMatchObject({
      hw_devices_1h: 4,
      hw_payments_1h: 4,
      hw_small_payments_1h: 4,
    });
    expect(seen.slice(0, 3).flatMap((a) => [...rules(a.browser), ...rules(a.server)])).not.toContain(
      'hardware_card_testing',
    );
    // The 4th card (a fresh account's first): only the hardware profile links it to the run.
    const fourth = seen[3]!.server;
    expect(fourth.signals).toContainEqual(
      expect.objectContaining({ rule: 'hardware_card_testing', score: 60 }),
    );
    expect(rules(fourth)).not.toContain('payments_per_account');
    // The page's own evidence (no behaviour at all on a checkout) is carried too (carried_*): block.
    expect(rules(fourth)).toContain('carried_behavior_missing');
    expect(['challenge', 'block']).toContain(fourth.action);
    // From the 7th attempt the page itself reads 6 cards: challenged before the card is sent.
    expect(seen[6]!.browser.signals).toContainEqual(
      expect.objectContaining({ rule: 'hardware_card_testing', score: 75 }),
    );
    // (With behavior_missing: the page sent no behaviour at all.)
    expect(seen[6]!.browser.risk_score).toBeGreaterThanOrEqual(60);
  });

  it('forgets the burst after the 1 h window', async () => {
    for (let i = 0; i < 3; i++)
      await checkout(noisy(FINGERPRINT), { account: `a${i}`, card: `pm_${hex()}`, amount: 2 });
    clock += 3 * 60 * 60 * 1000;
    const late = await checkout(noisy(FINGERPRINT), { account: 'a9', card: `pm_${hex()}`, amount: 2 });
    expect(hw(late.server).hw_payments_1h).toBe(1);
    expect(rules(late.server)).not.toContain('hardware_card_testing');
  });

  it('leaves identical iPhones of many customers buying small items alone', async () => {
    for (let i = 0; i < 8; i++) {
      // Same model and settings; iOS versions differ, so their renders (and device ids) do.
      const phone = { ...IPHONE, canvas_hash: `ios-${i % 4}`, audio_hash: `ios-audio-${i % 4}` };
      const { server } = await checkout(phone, {
        account: `cust_${i}`,
        card: `pm_${hex()}`,
        amount: 3.5,
        ua: IPHONE_UA,
        ip: '172.58.10.20',
      });
      expect(rules(server)).not.toContain('hardware_card_testing');
      if (i === 7) expect(hw(server)).toMatchObject({ hw_devices_1h: 4, hw_payments_1h: 8 });
    }
  });

  it('leaves a canvas-blocking extension retrying one card alone', async () => {
    const card = `pm_${hex()}`;
    for (let i = 0; i < 6; i++) {
      const { browser, server } = await checkout(noisy(FINGERPRINT), {
        account: 'privacy_fan',
        card,
        amount: 4.99,
        ip: '203.0.113.9',
      });
      expect(rules(browser)).not.toContain('hardware_card_testing');
      expect(rules(server)).not.toContain('hardware_card_testing');
    }
  });

  it('leaves identical office desktops paying normal prices alone', async () => {
    for (let i = 0; i < 6; i++) {
      const desk = { ...FINGERPRINT, canvas_hash: `driver-build-${i}` };
      const { server } = await checkout(desk, { account: `emp_${i}`, card: `pm_${hex()}`, amount: 42 });
      expect(rules(server)).not.toContain('hardware_card_testing');
    }
  });
});
