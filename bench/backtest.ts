// Backtest benchmark: 100,000 recorded decisions in a SQLite file, one draft rule set over all of them.
// Run: npm run bench:backtest
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBacktest } from '../packages/server/src/rules/backtest.ts';
import { buildRuleset } from '../packages/server/src/rules/ruleset.ts';
import { seedDecisions } from '../packages/server/src/rules/seed-decisions.ts';
import { migrate, openDatabase } from '../packages/server/src/storage/db.ts';
import { createTestContext } from '../packages/server/src/testing/context.ts';
import { createSite } from '../packages/server/src/workspace/sites.ts';
import { createWorkspace } from '../packages/server/src/workspace/workspaces.ts';

const EVENTS = Number(process.env.EVENTS ?? 100_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-backtest-'));
const ctx = await createTestContext();
await ctx.database.close();
ctx.database = openDatabase({ sqlitePath: path.join(dir, 'warden.db') });
await migrate(ctx.database);
const now = Date.now();
const workspace = await createWorkspace(ctx.database.db, { name: 'Bench', plan: 'pro' }, now);
const { site } = await createSite(
  ctx.database.db,
  { workspaceId: workspace.id, name: 'Bench site', allowedOrigins: [] },
  now,
);
let t = performance.now();
await seedDecisions(ctx.database, site.id, workspace.id, EVENTS, now - EVENTS);
console.log(`seeded ${EVENTS} decisions in ${Math.round(performance.now() - t)} ms`);

const rules = Array.from({ length: 10 }, (_, i) => ({
  id: `r${i}`,
  site_id: site.id,
  name: `rule_${i}`,
  description: '',
  enabled: 1,
  mode: i % 2 === 0 ? ('live' as const) : ('shadow' as const),
  event_types: '[]',
  expression: `features.history.ip_1m > ${10 + i}.0 && event.type == "login" && size(event.account_id) > 3`,
  score: 20,
  action: i === 0 ? ('block' as const) : null,
  priority: i,
  created_at: now,
  updated_at: now,
}));
t = performance.now();
const result = await runBacktest(ctx, buildRuleset(rules, []), {
  siteId: site.id,
  from: 0,
  to: now + 1,
  maxEvents: EVENTS,
  examples: 5,
});
const ms = performance.now() - t;
console.log(
  `backtest: ${result.evaluated} events, 10 rules, ${Math.round(ms)} ms (${Math.round(result.evaluated / (ms / 1000))} events/s), changed ${result.changed}, peak RSS ${Math.round(process.memoryUsage().rss / 1048576)} MB`,
);
await ctx.database.close();
await ctx.hotState.close();
fs.rmSync(dir, { recursive: true, force: true });
