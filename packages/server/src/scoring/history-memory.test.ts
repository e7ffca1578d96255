import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { localStateDeps } from '../services.ts';
import { MemoryHotState } from '../state/memory.ts';
import { createTestContext } from '../testing/context.ts';
import { testEngine } from '../testing/scoring-engine.ts';
import { History, type HistoryCounts, type Observation } from './history.ts';
import { rebuildHistory } from './history-rebuild.ts';
import { FINGERPRINT, insertSite, makeInput, recordDecision, testSite } from './test-fixtures.ts';

const BUDGET = 8 * 1024 * 1024;
let ctx: AppContext;
let state: MemoryHotState;
let clock = 1_700_000_000_000;

beforeEach(async () => {
  ctx = await createTestContext({ now: () => clock });
  await ctx.hotState.close();
  state = new MemoryHotState(() => clock, BUDGET);
  ctx.hotState = state;
});
afterEach(async () => {
  await ctx.hotState.close();
  await ctx.database.close();
});

/** Event `i` of a stream in which every event is a new account, IP, device, e-mail, token and card. */
function observation(i: number, overrides: Partial<Observation> = {}): Observation {
  const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  return {
    siteId: 'site_soak',
    eventType: 'login',
    accountId: `account-${i}`,
    ip,
    deviceId: `device-${i.toString(16).padStart(24, '0')}`,
    paymentHash: i % 4 === 0 ? `pm_${i}` : '',
    email: `user.${i}@example.com`,
    loginFailed: i % 5 === 0,
    login: i % 2 === 0,
    tokenId: `tok_${i}`,
    subnet: ip.slice(0, ip.lastIndexOf('.')),
    userAgent: 'ua1',
    smallPayment: i % 8 === 0,
    sdkServerCall: false,
    hardwareProfile: i % 4 === 0 ? `hw_${(i % 5000).toString(16)}` : '',
    paymentEvent: i % 4 === 0,
    ...overrides,
  };
}

describe('history under the hot-state memory budget', () => {
  it('stays within the budget over 120,000 distinct events, and counts recent entities exactly', async () => {
    const history = new History(localStateDeps(ctx));
    let peak = 0;
    for (let i = 0; i < 120_000; i++, clock += 5) {
      await history.observe(observation(i), clock);
      if (i % 1000 === 0) peak = Math.max(peak, state.bytes);
    }
    peak = Math.max(peak, state.bytes);
    expect(peak).toBeLessThanOrEqual(BUDGET);
    expect(state.evictions).toBeGreaterThan(100_000);
    // Without a bound this stream leaves about 25 entries per event (3 million).
    expect(state.size).toBeLessThan(250_000);

    // A recent attacker: one IP and device, three accounts, failing logins, after the flood.
    const attack = (n: number) =>
      observation(200_000 + n, {
        ip: '192.0.2.7',
        subnet: '192.0.2',
        deviceId: 'device-attacker',
        loginFailed: true,
        tokenId: 'tok_attacker',
      });
    for (let n = 0; n < 3; n++, clock += 1_000) await history.observe(attack(n), clock);
    const counts = await history.observe(attack(3), clock);
    expect(counts).toMatchObject({
      ip_1m: 4,
      device_1h: 4,
      failed_logins_ip_1h: 4,
      accounts_per_device_24h: 4,
      accounts_per_ip_24h: 4,
      failed_accounts_subnet_24h: 4,
      token_accounts_24h: 4,
      token_events_1h: 4,
    });
    expect(state.bytes).toBeLessThanOrEqual(BUDGET);
  }, 120_000);
});

describe('history rebuild in pages', () => {
  it('rebuilds the same counts a page of two decisions at a time as in one page', async () => {
    const site = testSite('site_pages');
    await insertSite(ctx, site);
    const engine = testEngine(ctx);
    // Pairs of decisions share a time: the pages continue by (created_at, id).
    for (let i = 0; i < 7; i++, clock += i % 2 === 0 ? 1_000 : 0) {
      const input = makeInput(
        ctx,
        {
          fingerprint: FINGERPRINT,
          context: { account_id: `acct_${i % 3}`, login_succeeded: false, payment_hash: `pm_${i % 5}` },
          environment: { nonce: `page-nonce-${i}`, timestamp: clock },
        },
        { site },
      );
      const result = await engine.score(input);
      await recordDecision(ctx, input, result);
      await engine.afterRecord?.(input, result);
    }
    const rebuiltWith = async (page: number): Promise<[HistoryCounts, boolean]> => {
      const fresh: AppContext = { ...ctx, hotState: new MemoryHotState(() => clock, BUDGET) };
      await rebuildHistory(localStateDeps(fresh), site.id, page);
      const input = makeInput(
        fresh,
        { fingerprint: FINGERPRINT, context: { account_id: 'acct_0' } },
        { site },
      );
      const counts = (await testEngine(fresh).score(input)).features.history as HistoryCounts;
      const nonceFree = await fresh.hotState.claimOnce(`nonce:${site.id}:page-nonce-0`, 60_000);
      await fresh.hotState.close();
      return [counts, nonceFree];
    };
    const [paged, pagedNonceFree] = await rebuiltWith(2);
    const [whole] = await rebuiltWith(1_000);
    expect(paged).toEqual(whole);
    expect(paged).toMatchObject({
      ip_1h: 8,
      failed_logins_ip_1h: 7,
      accounts_per_ip_24h: 3,
      payments_per_device_24h: 5,
    });
    expect(pagedNonceFree).toBe(false);
  });
});
