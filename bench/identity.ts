/**
 * Identity graph stalls and memory: `npm run bench:identity -- [n]` observes n (default 200,000)
 * high-cardinality events (every event a new account, device, payment hash and IP; one in ten
 * reuses a recent device or card, so clusters form) the way the server does: 50 events per turn
 * of the event loop, the decisions recorded in batches of 500 on in-memory SQLite, the clock moving
 * 2 ms per event. Then a second instance starts on the recorded decisions, as after a restart, and
 * keeps scoring one event per turn while it loads. Prints the event-loop delay (max, p99) of both
 * phases, the longest turn, the heap, and the graph's budget and entries.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { IdentityClusters } from '../packages/server/src/scoring/identity.ts';
import { insertIdentityRows } from '../packages/server/src/scoring/identity-fixtures.ts';
import type { IdentityEvent } from '../packages/server/src/scoring/identity-graph.ts';
import { insertSite, testSite } from '../packages/server/src/scoring/test-fixtures.ts';
import { createTestContext } from '../packages/server/src/testing/context.ts';

const n = Number(process.argv[2] ?? 200_000);
let clock = Date.now() - n * 2;
const ctx = await createTestContext({ now: () => clock });
const site = testSite('site_bench');
await insertSite(ctx, site);

function event(i: number): IdentityEvent {
  const reuse = i % 10 === 5 && i > 100;
  const j = reuse ? i - 37 : i;
  return {
    accountId: `account-${i.toString(36)}-${'x'.repeat(16)}`,
    deviceId: `dev_${j.toString(16).padStart(12, '0')}`,
    paymentHash: i % 3 === 0 ? `pay_${(reuse ? i - 36 : i).toString(16).padStart(40, '0')}` : '',
    ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    at: clock,
  };
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1024 / 1024);
}

const ms = (ns: number) => (ns / 1e6).toFixed(1);
const heapBefore = heapMb();

// Phase 1: live scoring.
const live = new IdentityClusters(ctx);
let pending: IdentityEvent[] = [];
let longestTurn = 0;
/** CPU time (all threads) of the most expensive turn: unlike wall time, not stretched by other processes. */
let maxTurnCpuMs = 0;
const cpuSince = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1000;
};
const h1 = monitorEventLoopDelay({ resolution: 1 });
h1.enable();
await new Promise((r) => setTimeout(r, 20));
const t1 = performance.now();
let observeCpuUs = 0;
let maxObserveCpuMs = 0;
for (let i = 0; i < n; ) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let k = 0; k < 50 && i < n; k++, i++) {
    clock += 2;
    const e = event(i);
    await live.observe(site.id, e);
    pending.push(e);
  }
  const used = process.cpuUsage(cpu);
  observeCpuUs += used.user + used.system;
  maxObserveCpuMs = Math.max(maxObserveCpuMs, (used.user + used.system) / 1000);
  if (pending.length >= 500) {
    const rows = pending;
    pending = [];
    await insertIdentityRows(ctx.database, site, rows);
  }
  longestTurn = Math.max(longestTurn, performance.now() - start);
  maxTurnCpuMs = Math.max(maxTurnCpuMs, cpuSince(cpu));
  await nextTurn();
}
h1.disable();
const liveSeconds = (performance.now() - t1) / 1000;
if (pending.length) await insertIdentityRows(ctx.database, site, pending);
const heapAfterLive = heapMb();

// Phase 2: a new instance on the recorded decisions (a restart), scoring while it loads.
const restarted = new IdentityClusters(ctx);
const h2 = monitorEventLoopDelay({ resolution: 1 });
h2.enable();
await new Promise((r) => setTimeout(r, 20));
const t2 = performance.now();
const cpu2 = process.cpuUsage();
let scoredWhileLoading = 0;
let firstAnswerMs = 0;
const first = restarted.observe(site.id, event(n)).then(() => {
  firstAnswerMs = performance.now() - t2;
});
// The longest stretch between two turns of this loop (the first one includes the first call).
let longestGap = 0;
let maxGapCpuMs = 0;
for (let i = n + 1, last = t2, lastCpu = cpu2; !firstAnswerMs; i++) {
  await nextTurn();
  const at = performance.now();
  longestGap = Math.max(longestGap, at - last);
  maxGapCpuMs = Math.max(maxGapCpuMs, cpuSince(lastCpu));
  last = at;
  lastCpu = process.cpuUsage();
  clock += 2;
  void restarted.observe(site.id, event(i));
  scoredWhileLoading++;
}
await first;
// Let a load still running behind the first answer finish.
const graph = (restarted as { graph?: { stats(): { entries: number; bytes: number; budgetBytes: number } } })
  .graph;
// (The identity graph before its rewrite has no load counters: `load` was a method.)
const counters = (restarted as { load?: { queries: number; rows: number } }).load;
const loadStats = typeof counters?.rows === 'number' ? counters : undefined;
for (let before = -1; loadStats && loadStats.rows !== before; ) {
  before = loadStats.rows;
  await new Promise((r) => setTimeout(r, 50));
}
h2.disable();
const heapAfterRestart = heapMb();

console.log(
  `identity bench: ${n.toLocaleString()} events, ${liveSeconds.toFixed(1)} s live; observe CPU ${(observeCpuUs / n).toFixed(1)} µs per event (all threads, GC included)`,
);
console.log(
  `live:    event-loop delay max ${ms(h1.max)} ms, p99 ${ms(h1.percentile(99))} ms; longest turn ${longestTurn.toFixed(1)} ms wall, ${maxTurnCpuMs.toFixed(1)} ms CPU (50 events + a 500-row insert); the 50 observes alone at most ${maxObserveCpuMs.toFixed(1)} ms CPU`,
);
console.log(
  `restart: event-loop delay max ${ms(h2.max)} ms, p99 ${ms(h2.percentile(99))} ms, longest turn ${longestGap.toFixed(1)} ms wall, ${maxGapCpuMs.toFixed(1)} ms CPU; first answer after ${firstAnswerMs.toFixed(0)} ms, ${scoredWhileLoading} events scored meanwhile${loadStats ? `; ${loadStats.rows.toLocaleString()} rows in ${loadStats.queries} queries` : ''}`,
);
console.log(
  `heap:    ${heapBefore} MB before, ${heapAfterLive} MB after live, ${heapAfterRestart} MB after restart (both instances alive)${graph ? `; graph ${graph.stats().entries.toLocaleString()} entries, ~${(graph.stats().bytes / 1048576).toFixed(1)} of ${(graph.stats().budgetBytes / 1048576).toFixed(0)} MB budget` : ''}`,
);
// Both instances stay reachable until here, so the heap figures include both.
void [live, restarted];
await ctx.hotState.close();
await ctx.database.close();
