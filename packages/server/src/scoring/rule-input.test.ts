import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { unpackDecision } from '../decisions/packed-row.ts';
import { runBacktest } from '../rules/backtest.ts';
import { createRule } from '../rules/repo.ts';
import type { SitesTable } from '../storage/schema.ts';
import { createTestWorkspace } from '../testing/accounts.ts';
import { createTestContext } from '../testing/context.ts';
import { testEngine } from '../testing/scoring-engine.ts';
import { FINGERPRINT, makeInput, recordDecision } from './test-fixtures.ts';

let ctx: AppContext;
let clock: number;
let site: SitesTable;
beforeEach(async () => {
  clock = 1_700_000_000_000;
  ctx = await createTestContext({ now: () => clock });
  const ws = await createTestWorkspace(ctx, { plan: 'pro' });
  site = await ctx.database.db
    .selectFrom('sites')
    .selectAll()
    .where('id', '=', ws.site.id)
    .executeTakeFirstOrThrow();
});
afterEach(async () => {
  await ctx.hotState.close();
  await ctx.database.close();
});

/** Score `n` events live with the site's rules and record them as the routes do; the live hits by rule. */
async function scoreLive(n: number): Promise<Record<string, number>> {
  const engine = testEngine(ctx);
  const hits: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const input = makeInput(
      ctx,
      {
        ...(i % 2 === 0 ? { fingerprint: FINGERPRINT } : {}),
        context: {
          account_id: `acct_${i % 3}`,
          request_url: i % 3 === 0 ? '/login' : '/signin',
          login_succeeded: i % 4 !== 0,
        },
      },
      { site, ip: `198.51.100.${i % 2}`, workspace: { id: 'ws', plan: 'pro', demo: false } },
    );
    const result = await engine.score(input);
    await recordDecision(ctx, input, result);
    const custom = (result.features as { custom_rules?: { matched: string[] } }).custom_rules;
    for (const name of custom?.matched ?? []) hits[name] = (hits[name] ?? 0) + 1;
    clock += 1_000;
  }
  return hits;
}

describe('stored rule input', () => {
  it('lets a backtest reproduce the live custom-rule hits and actions exactly', async () => {
    // Rules on what only the live request had (request_url), on the identity cluster, on counters.
    await createRule(ctx, site.id, {
      name: 'login_page',
      expression: 'event.request_url == "/login"',
      score: 20,
    });
    await createRule(ctx, site.id, {
      name: 'linked',
      expression: 'identity.linked_accounts >= 1',
      score: 5,
    });
    await createRule(ctx, site.id, {
      name: 'busy_ip',
      expression: 'features.history.ip_1h >= 3.0',
      action: 'review',
    });
    const live = await scoreLive(12);
    expect(live.login_page).toBe(4);
    expect(live.busy_ip).toBeGreaterThan(0);
    expect(live.linked).toBeGreaterThan(0);

    const ruleset = await ctx.services.rules.load(site.id);
    const options = { siteId: site.id, from: 0, to: clock + 1, maxEvents: 1000, examples: 5 };
    const replay = await runBacktest(ctx, ruleset, options);
    expect(replay.evaluated).toBe(12);
    expect(replay.matches).toEqual(live);
    expect(replay.changed).toBe(0);
    expect(replay.after).toEqual(replay.before);

    // Decisions recorded before the rule input existed (JSON columns, not packed) are
    // reconstructed: request_url is unknown.
    const rows = await ctx.database.db.selectFrom('decisions').selectAll().execute();
    for (const row of rows) {
      const { features, evidence, response } = unpackDecision(row);
      await ctx.database.db
        .updateTable('decisions')
        .set({ features, evidence, response, rule_input: null, packed: null, packed_evidence: null })
        .where('id', '=', row.id)
        .execute();
    }
    const legacy = await runBacktest(ctx, ruleset, options);
    expect(legacy.matches.login_page).toBeUndefined();
    expect(legacy.matches.busy_ip).toBe(live.busy_ip);
  }, 60_000);

  it('is versioned and compact: the event, identity and default signal count, not the features again', async () => {
    await scoreLive(1);
    const row = await ctx.database.db.selectFrom('decisions').selectAll().executeTakeFirstOrThrow();
    const stored = JSON.parse(unpackDecision(row).rule_input ?? 'null');
    expect(stored).toMatchObject({
      v: 1,
      event: { type: 'login', request_url: '/login', account_id: 'acct_0' },
      device_id: row.device_id,
      ip: '198.51.100.0',
      hard_automation: false,
      default_signals: JSON.parse(row.signals).length,
    });
    expect(stored.features).toBeUndefined();
  });
});
