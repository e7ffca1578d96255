/**
 * `npm run bench`: POST /api/antibot/verify on Warden run as production runs it, next to a bare
 * Fastify echo of the same bodies, in one run.
 *
 * Warden: `warden serve` (bundled JavaScript, as `npm start`), webhook worker on, an embedded SQLite
 * file in a temporary data dir, one Pro site whose webhook points at a receiver process on
 * loopback (deliveries really happen). Load: autocannon, a new account, IP, e-mail (and payment
 * hash, device) in every event. Scenarios:
 *   bare      `context` only (~300 B)
 *   evidence  fingerprint + behaviour (~200 mouse samples) + environment (~7 KB), every second
 *             body with an `idempotency_key`
 * First `--warm N` distinct events are fed (mixed bare and evidence), so that the measurement runs
 * on a server that has seen N events; then each scenario gets a short warm-up and is measured.
 * Per scenario it prints CPU µs per request per thread (from /proc: main, writer thread, others)
 * and in total, the ratio to the echo's CPU per request for the same bodies (and to the echo paced
 * to Warden's decisions/s of the first --workers count: CPU per request rises as the rate falls, so
 * the full-speed echo alone overstates the gap), requests/s, latency
 * p50/p99/max, event-loop delay p99/max (the server's /metrics), peak RSS (VmHWM, reset per
 * scenario) and Warden's own timeline of the scenario (bench/lib/timeline.ts: where a decision's
 * time went, stage by stage, the group commit's batches and the WAL checkpoints).
 *
 * Options: --duration <s> measured seconds per scenario (default 15), --connections <n> (32),
 * --threads (CPU per request of every thread), --warm <N> distinct events fed first (default 5000; the issue's "after a few hundred thousand
 * events" is --warm 300000, ~5 minutes more), --scenarios bare,evidence, --no-echo, --cpu-prof
 * (writes Warden's main-thread .cpuprofile into bench/profiles/), --workers 1,2 (`serve --workers`
 * counts to run, each on a fresh server; default 1,2: decisions/s at 1 and 2 workers. With workers,
 * CPU is summed over the primary and its workers; "main thread" is the workers' main threads and
 * "primary" the primary's, which owns hot state, identity and commits), --node-args "<flags>" (Node
 * flags for Warden, e.g. "--trace-gc" or "--single-threaded-gc", to compare settings).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { arg } from './lib/args.ts';
import { type LoadOptions, load as loadOnce } from './lib/load.ts';
import { cpuSince, peakRssMb, readThreadTicks, resetPeakRss, rssMb, threadsSince } from './lib/proc-stat.ts';
import { eventLoopDelay, type Running, startEcho, startReceiver, startWarden } from './lib/servers.ts';
import { type MetricsSnapshot, scrapeTimeline, timelineReport } from './lib/timeline.ts';
import { SCENARIO_BODIES, type Scenario, warmBody } from './lib/verify-bodies.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DURATION_S = Number(arg('duration') ?? 15);
const CONNECTIONS = Number(arg('connections') ?? 32);
const WARM_EVENTS = Number(arg('warm') ?? 5000);
const SCENARIO_WARMUP_S = 3;
const SCENARIOS = (arg('scenarios') ?? 'bare,evidence').split(',') as Scenario[];
const ECHO = !process.argv.includes('--no-echo');
const CPU_PROF = process.argv.includes('--cpu-prof');
const THREADS = process.argv.includes('--threads');
const WORKERS = (arg('workers') ?? '1,2').split(',').map(Number);
const NODE_ARGS = (arg('node-args') ?? '').split(' ').filter(Boolean);

/** 2xx answers by server URL: for Warden, every one is a recorded decision with a webhook. */
const answered = new Map<string, number>();
async function load(options: LoadOptions): Promise<autocannon.Result> {
  const result = await loadOnce(options);
  answered.set(options.url, (answered.get(options.url) ?? 0) + result['2xx']);
  return result;
}

/** Event numbers are never reused: every request is a new account, IP, e-mail and device. */
let eventNumber = 0;
const next = () => eventNumber++;

interface Measured {
  requests: number;
  non2xx: number;
  errors: number;
  perSecond: number;
  cpuUs: { main: number; primary: number; writer: number; others: number; total: number };
  latency: { p50: number; p99: number; max: number };
  eventLoop: { p99Ms: number; maxMs: number } | undefined;
  peakRssMb: number;
  /** Warden's own timeline of the measured seconds (bench/lib/timeline.ts). */
  timeline: string[];
}

async function measure(
  server: Running,
  headers: Record<string, string>,
  scenario: Scenario,
  warden: boolean,
  rate?: number,
): Promise<Measured> {
  const body = SCENARIO_BODIES[scenario];
  const paced = rate === undefined ? {} : { rate };
  await load({
    url: server.url,
    headers,
    connections: CONNECTIONS,
    seconds: SCENARIO_WARMUP_S,
    body,
    next,
    ...paced,
  });
  let timelineBefore: MetricsSnapshot | undefined;
  if (warden) {
    await eventLoopDelay(server.url); // starts the delay window
    timelineBefore = await scrapeTimeline(server.url);
  }
  resetPeakRss(server.pid);
  const before = readThreadTicks(server.pid);
  const result: autocannon.Result = await load({
    url: server.url,
    headers,
    connections: CONNECTIONS,
    seconds: DURATION_S,
    body,
    next,
    ...paced,
  });
  const after = readThreadTicks(server.pid);
  const cpu = cpuSince(before, after);
  if (THREADS)
    console.log(
      `  ${warden ? 'warden' : rate === undefined ? 'echo' : `echo at ${rate} req/s`} ${scenario}, CPU µs per request by thread: ` +
        threadsSince(before, after)
          .map((t) => `${t.tid}/${t.group} ${(t.us / Math.max(1, result['2xx'])).toFixed(0)}`)
          .join(', '),
    );
  const eventLoop = warden ? await eventLoopDelay(server.url) : undefined;
  const timeline = timelineBefore ? timelineReport(timelineBefore, await scrapeTimeline(server.url)) : [];
  const ok = Math.max(1, result['2xx']);
  const total = cpu.main + cpu.primary + cpu.writer + cpu.others;
  return {
    requests: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    perSecond: result['2xx'] / result.duration,
    cpuUs: {
      main: cpu.main / ok,
      primary: cpu.primary / ok,
      writer: cpu.writer / ok,
      others: cpu.others / ok,
      total: total / ok,
    },
    latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    eventLoop,
    peakRssMb: peakRssMb(server.pid),
    timeline,
  } satisfies Measured;
}

const us = (v: number) => `${v.toFixed(0)} µs`;
const msText = (v: number) => `${v.toFixed(v < 10 ? 1 : 0)} ms`;

function report(
  scenario: Scenario,
  workers: number,
  warden: Measured,
  echo: Measured | undefined,
  pacedEcho: Measured | undefined,
): void {
  const row = (label: string, w: string, e = '') =>
    console.log(`  ${label.padEnd(34)} ${w.padStart(18)} ${e.padStart(14)}`);
  const kb = (SCENARIO_BODIES[scenario](0).length / 1024).toFixed(1);
  console.log(
    `\n${scenario} bodies (${kb} KB${scenario === 'evidence' ? ', every second one with an idempotency_key' : ''}), --workers ${workers}`,
  );
  row('', 'warden', echo ? 'echo' : '');
  row(
    'requests answered 2xx / non-2xx / errors',
    `${warden.requests} / ${warden.non2xx} / ${warden.errors}`,
    echo ? String(echo.requests) : '',
  );
  row('requests/s', warden.perSecond.toFixed(0), echo?.perSecond.toFixed(0));
  row('CPU per request: main thread', us(warden.cpuUs.main), echo && us(echo.cpuUs.main));
  if (workers > 1) row('                 primary thread', us(warden.cpuUs.primary), echo && '-');
  row('                 writer thread', us(warden.cpuUs.writer), echo && '-');
  row('                 other threads', us(warden.cpuUs.others), echo && us(echo.cpuUs.others));
  row('                 total', us(warden.cpuUs.total), echo && us(echo.cpuUs.total));
  if (echo)
    row('CPU per decision / echo CPU per request', `${(warden.cpuUs.total / echo.cpuUs.total).toFixed(1)}x`);
  if (pacedEcho)
    row(
      `… / echo paced to ${pacedEcho.perSecond.toFixed(0)} req/s`,
      `${(warden.cpuUs.total / pacedEcho.cpuUs.total).toFixed(1)}x`,
      us(pacedEcho.cpuUs.total),
    );
  row(
    'latency p50 / p99 / max',
    `${warden.latency.p50} / ${warden.latency.p99} / ${warden.latency.max} ms`,
    echo && `${echo.latency.p50} / ${echo.latency.p99} / ${echo.latency.max}`,
  );
  if (warden.eventLoop)
    row(
      'event-loop delay p99 / max',
      `${msText(warden.eventLoop.p99Ms)} / ${msText(warden.eventLoop.maxMs)}`,
    );
  row('peak RSS', `${warden.peakRssMb.toFixed(0)} MB`, echo && `${echo.peakRssMb.toFixed(0)} MB`);
  console.log("  Warden's timeline (/metrics, this scenario's measured seconds):");
  for (const line of warden.timeline) console.log(`    ${line}`);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

/** One fresh server with `workers` workers: warm-up, then every scenario measured. */
async function runWarden(workers: number): Promise<Map<Scenario, Measured>> {
  const receiver = await startReceiver();
  const warden = await startWarden(
    receiver.url,
    [...NODE_ARGS, ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(HERE, 'profiles')}`] : [])],
    workers,
  );
  const headers = { 'x-site-key': warden.siteKey, 'x-secret-key': warden.secretKey };
  const wardenResults = new Map<Scenario, Measured>();
  answered.delete(warden.url);
  let delivered = 0;
  let decisions = 0;
  try {
    if (WARM_EVENTS > 0) {
      const t0 = Date.now();
      const warm = await load({
        url: warden.url,
        headers,
        connections: CONNECTIONS,
        amount: WARM_EVENTS,
        body: warmBody,
        next,
      });
      console.log(
        `\nwarm-up (--workers ${workers}): ${warm['2xx']} distinct events (${warm.non2xx} non-2xx) in ${((Date.now() - t0) / 1000).toFixed(0)} s; ` +
          `RSS now ${rssMb(warden.pid).toFixed(0)} MB`,
      );
    }
    for (const scenario of SCENARIOS)
      wardenResults.set(scenario, await measure(warden, headers, scenario, true));
    // Deliveries still queued get up to 10 s more.
    decisions = answered.get(warden.url) ?? 0;
    for (let waited = 0; receiver.lags.length < decisions && waited < 10_000; waited += 200)
      await new Promise((resolve) => setTimeout(resolve, 200));
    delivered = receiver.lags.length;
  } finally {
    await warden.stop();
    await receiver.stop();
  }
  console.log(
    `webhooks (--workers ${workers}): ${delivered} deliveries received for ${decisions} decisions counted (warm-ups included; ` +
      'answers still in flight when a load stops, up to one per connection, are not counted); ' +
      `lag from decision to receipt p50 ${percentile(receiver.lags, 50)} ms, p99 ${percentile(receiver.lags, 99)} ms`,
  );
  return wardenResults;
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(
    `warden bench: POST /api/antibot/verify, ${CONNECTIONS} connections, ${DURATION_S} s per scenario ` +
      `(+${SCENARIO_WARMUP_S} s warm-up) after ${WARM_EVENTS} distinct events; node ${process.version}, ` +
      `${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}; CPU from /proc, all threads`,
  );

  const echoResults = new Map<Scenario, Measured>();
  if (ECHO) {
    const echo = await startEcho();
    try {
      for (const scenario of SCENARIOS) echoResults.set(scenario, await measure(echo, {}, scenario, false));
    } finally {
      await echo.stop();
    }
  }

  const runs: Array<{ workers: number; results: Map<Scenario, Measured> }> = [];
  for (const workers of WORKERS) runs.push({ workers, results: await runWarden(workers) });

  // The echo again, paced to the first Warden run's decisions/s: CPU per request falls as the rate
  // rises (more requests share each event-loop turn and socket write), so the full-speed echo
  // alone overstates the ratio of a server that runs at a tenth of its rate.
  const pacedEcho = new Map<Scenario, Measured>();
  if (ECHO && runs[0]) {
    const echo = await startEcho();
    try {
      for (const scenario of SCENARIOS) {
        const rate = Math.max(1, Math.round(runs[0].results.get(scenario)!.perSecond));
        pacedEcho.set(scenario, await measure(echo, {}, scenario, false, rate));
      }
    } finally {
      await echo.stop();
    }
  }
  for (const { workers, results } of runs)
    for (const scenario of SCENARIOS)
      report(
        scenario,
        workers,
        results.get(scenario)!,
        echoResults.get(scenario),
        workers === runs[0]?.workers ? pacedEcho.get(scenario) : undefined,
      );
  if (runs.length > 1) {
    console.log('\ndecisions/s by --workers (CPU µs per decision, all processes and threads)');
    for (const scenario of SCENARIOS)
      console.log(
        `  ${scenario.padEnd(9)} ${runs
          .map(({ workers, results }) => {
            const m = results.get(scenario)!;
            return `${workers}: ${m.perSecond.toFixed(0)}/s (${us(m.cpuUs.total)})`;
          })
          .join('   ')}`,
      );
  }
  console.log(
    `load average now ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; run took ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (CPU_PROF) console.log(`CPU profile of Warden's main thread written to ${path.join(HERE, 'profiles')}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
