import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { MemoryHotState } from '../state/memory.ts';
import { createTestContext } from '../testing/context.ts';
import { createEngine } from './engine.ts';
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

describe('velocity and history across a restart', () => {
  it('rebuilds counters from recorded decisions, so counts match', async () => {
    const engine = createEngine(ctx);
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
    const restarted: AppContext = { ...ctx, hotState: new MemoryHotState() };
    const input = makeInput(
      restarted,
      {
        fingerprint: FINGERPRINT,
        context: { account_id: 'acct_0', login_succeeded: false, payment_hash: 'pm_0' },
      },
      { site },
    );
    const after = history(await createEngine(restarted).score(input));
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
    const engine = createEngine(ctx);
    const input = makeInput(ctx, { fingerprint: FINGERPRINT }, { site });
    await recordDecision(ctx, input, await engine.score(input));
    // A second process on the same (shared) hot state.
    const second = makeInput(ctx, { fingerprint: FINGERPRINT }, { site });
    expect(history(await createEngine(ctx).score(second)).ip_1m).toBe(2);
  });
});
