import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { createTestWorkspace } from '../testing/accounts.ts';
import { createTestContext } from '../testing/context.ts';
import { createRule } from './repo.ts';
import { RuleStore } from './store.ts';

describe('rule store', () => {
  let ctx: AppContext;
  let siteId: string;
  let clock = Date.now();
  beforeAll(async () => {
    ctx = { ...(await createTestContext()), now: () => clock };
    siteId = (await createTestWorkspace(ctx)).site.id;
    await createRule(ctx, siteId, {
      name: 'big orders',
      expression: 'event.order_amount > 100.0',
      score: 20,
    });
  });
  afterAll(() => ctx.database.close());

  /** Let a background refresh started by load() finish. */
  const settle = () => new Promise((r) => setTimeout(r, 20));

  it('keeps the compiled rule set while the stored rules are unchanged', async () => {
    const store = new RuleStore(ctx);
    const first = await store.load(siteId);
    expect(first.rules.map((r) => r.name)).toEqual(['big orders']);
    for (let i = 0; i < 3; i++) {
      clock += 2_000;
      expect(await store.load(siteId)).toBe(first);
      await settle();
    }
    expect(await store.load(siteId)).toBe(first);
  });

  it('picks up a change made by another process within the refresh interval', async () => {
    const store = new RuleStore(ctx);
    const first = await store.load(siteId);
    await ctx.database.db
      .updateTable('rules')
      .set({ expression: 'event.order_amount > 500.0', updated_at: clock + 1 })
      .where('site_id', '=', siteId)
      .execute();
    clock += 2_000;
    expect(await store.load(siteId)).toBe(first); // served while the fresh set loads
    await settle();
    const next = await store.load(siteId);
    expect(next).not.toBe(first);
    expect(next.version).not.toBe(first.version);
  });
});
