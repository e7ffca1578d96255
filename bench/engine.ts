/**
 * Engine latency (feature extraction, every default rule, lists and custom rules):
 * `npm run bench:engine -- [n] [rules]` scores n (default 10,000) varied
 * events on in-memory SQLite and in-memory hot state, with `rules` (default 50) analyst-style
 * custom CEL rules on the site (bench/bench-rules.ts), and prints p50/p99 of engine.score.
 */

import {
  FINGERPRINT,
  insertSite,
  makeInput,
  testSite,
} from '../packages/server/src/scoring/test-fixtures.ts';
import { createTestContext } from '../packages/server/src/testing/context.ts';
import { testEngine } from '../packages/server/src/testing/scoring-engine.ts';
import { createBenchRules } from './bench-rules.ts';

const n = Number(process.argv[2] ?? 10_000);
const ruleCount = Number(process.argv[3] ?? 50);
const ctx = await createTestContext();
const engine = testEngine(ctx);
const site = testSite('site_bench');
await insertSite(ctx, site);
await createBenchRules(ctx, site.id, ruleCount);
const events = ['signup', 'login', 'promo_claim', 'checkout', 'page_view'] as const;

function input(i: number) {
  const mouse = Array.from({ length: 120 }, (_, k) => [
    k * 16 + (k % 3),
    200 + k * 3 + ((k * 7) % 5),
    300 + k * 2,
  ]);
  const keys = Array.from({ length: 20 }, (_, k) => [k * 140 + ((k * 37) % 60), 70 + ((k * 13) % 40)]);
  return makeInput(
    ctx,
    {
      context: {
        event_type: events[i % events.length]!,
        account_id: `acct_${i % 3000}`,
        email: `user${i % 3000}+x@example.com`,
        ...(i % 5 === 3 ? { payment_hash: `pm_${i % 700}`, order_amount: 42 } : {}),
        login_succeeded: i % 7 !== 0,
      },
      fingerprint: { ...FINGERPRINT, canvas_hash: `c${i % 2000}` },
      behavior: {
        v: 1,
        mouse,
        key_samples: keys,
        mouse_moves: 120,
        key_presses: 20,
        time_to_submit_ms: 8000,
      },
      environment: {
        v: 1,
        timestamp: Date.now(),
        nonce: `n${i}`,
        webdriver: i % 50 === 0,
        headless_markers: i % 30 === 0 ? ['no_plugins'] : [],
      },
    },
    {
      site,
      ip: `198.51.${(i >> 8) % 256}.${i % 256}`,
      workspace: { id: 'w', plan: 'pro', demo: false },
      now: Date.now(),
    },
  );
}

for (let i = 0; i < 1000; i++) await engine.score(input(i + n));
const times: number[] = [];
const cpuTimes: number[] = [];
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
for (let i = 0; i < n; i++) {
  const inp = input(i);
  const c = process.cpuUsage();
  const t = performance.now();
  const r = await engine.score(inp);
  times.push(performance.now() - t);
  const used = process.cpuUsage(c);
  cpuTimes.push((used.user + used.system) / 1000);
  if (i === 0) console.error(`sample: ${r.risk_score} ${r.action} ${r.signals.map((s) => s.rule).join(',')}`);
}
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - wall0;
times.sort((a, b) => a - b);
cpuTimes.sort((a, b) => a - b);
/** The p-quantile of a sorted list, in ms with 3 decimals. */
const q = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(3);
console.log(
  `engine.score n=${n}, ${ruleCount} custom rules: p50=${q(times, 0.5)} ms p90=${q(times, 0.9)} ms p99=${q(times, 0.99)} ms max=${q(times, 1)} ms (wall)`,
);
console.log(
  `engine.score CPU per call: p50=${q(cpuTimes, 0.5)} ms p99=${q(cpuTimes, 0.99)} ms (process CPU incl. GC threads; excludes waiting for a core)`,
);
// Wall-clock percentiles include preemption on a busy machine; CPU time per call does not.
console.log(
  `mean wall ${(wall / n).toFixed(3)} ms, mean CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms per call, load ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`,
);
await ctx.hotState.close();
await ctx.database.close();
