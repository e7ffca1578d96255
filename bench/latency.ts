/**
 * `npm run bench:latency`: the latency a shop sees at ordinary load, measured open-loop.
 *
 * Warden runs as `npm run bench` runs it (bench/lib/servers.ts: `warden serve`, embedded SQLite
 * file, webhook to a receiver on loopback, a new account, IP and e-mail per event). Per scenario
 * (bare, evidence; bench/lib/verify-bodies.ts):
 *   1. capacity: closed loop (autocannon, --capacity-connections, default 32) for --capacity-seconds;
 *   2. open loop (bench/lib/open-loop.ts: a fixed schedule, latency from the scheduled time) at
 *      25 %, 50 % and 75 % of that capacity (--fractions) for --seconds each, with the server's
 *      event-loop delay, CPU per request (/proc, all threads) and its own timeline of the phase
 *      (/metrics: where a /verify request's time went, the group commit's batches, checkpoints);
 *   3. the bare Fastify echo of the same bodies at the same rates (--no-echo to skip).
 * Prints p50 / p90 / p99 / p99.9 / max per rate. Options: --seconds (default 20), --connections
 * (open loop, default 64), --scenarios bare,evidence, --fractions 25,50,75, --warm N (default 5000
 * distinct events first), --capacity <decisions/s> (skip the closed loop), --node-args "<flags>".
 */
import os from 'node:os';
import { arg } from './lib/args.ts';
import { load } from './lib/load.ts';
import { type OpenLoopResult, openLoop } from './lib/open-loop.ts';
import { cpuSince, readThreadTicks } from './lib/proc-stat.ts';
import {
  type EventLoopDelay,
  eventLoopDelay,
  type Running,
  startEcho,
  startReceiver,
  startWarden,
} from './lib/servers.ts';
import { type MetricsSnapshot, scrapeTimeline, timelineReport } from './lib/timeline.ts';
import { SCENARIO_BODIES, type Scenario, warmBody } from './lib/verify-bodies.ts';

const SECONDS = Number(arg('seconds') ?? 20);
const CONNECTIONS = Number(arg('connections') ?? 64);
const CAPACITY_CONNECTIONS = Number(arg('capacity-connections') ?? 32);
const CAPACITY_SECONDS = Number(arg('capacity-seconds') ?? 8);
const SCENARIOS = (arg('scenarios') ?? 'bare,evidence').split(',') as Scenario[];
const FRACTIONS = (arg('fractions') ?? '25,50,75').split(',').map(Number);
const WARM_EVENTS = Number(arg('warm') ?? 5000);
const GIVEN_CAPACITY = arg('capacity');
const ECHO = !process.argv.includes('--no-echo');
const NODE_ARGS = (arg('node-args') ?? '').split(' ').filter(Boolean);

let eventNumber = 0;
const next = () => eventNumber++;

interface Phase {
  scenario: Scenario;
  percent: number;
  rate: number;
  result: OpenLoopResult;
  cpuUsPerRequest: number;
  eventLoop?: EventLoopDelay;
  timeline?: string[];
}

/** One open-loop phase with the server's CPU per request (and, for Warden, its own view). */
async function phase(
  server: Running,
  headers: Record<string, string>,
  scenario: Scenario,
  percent: number,
  rate: number,
  warden: boolean,
): Promise<Phase> {
  let before: MetricsSnapshot | undefined;
  if (warden) {
    await eventLoopDelay(server.url); // starts the delay window
    before = await scrapeTimeline(server.url);
  }
  const ticks = readThreadTicks(server.pid);
  const body = SCENARIO_BODIES[scenario];
  const result = await openLoop({
    url: server.url,
    headers,
    connections: CONNECTIONS,
    rate,
    seconds: SECONDS,
    body,
    next,
  });
  const cpu = cpuSince(ticks, readThreadTicks(server.pid));
  const cpuUsPerRequest = (cpu.main + cpu.primary + cpu.writer + cpu.others) / Math.max(1, result.ok);
  if (!warden) return { scenario, percent, rate, result, cpuUsPerRequest };
  const eventLoop = await eventLoopDelay(server.url);
  const timeline = timelineReport(before!, await scrapeTimeline(server.url));
  return { scenario, percent, rate, result, cpuUsPerRequest, eventLoop, timeline };
}

async function capacity(
  server: Running,
  headers: Record<string, string>,
  scenario: Scenario,
): Promise<number> {
  if (GIVEN_CAPACITY !== undefined) return Number(GIVEN_CAPACITY);
  const body = SCENARIO_BODIES[scenario];
  const options = { url: server.url, headers, connections: CAPACITY_CONNECTIONS, body, next };
  await load({ ...options, seconds: 2 });
  const result = await load({ ...options, seconds: CAPACITY_SECONDS });
  console.log(
    `capacity, ${scenario}: ${(result['2xx'] / result.duration).toFixed(0)} decisions/s closed-loop ` +
      `(${CAPACITY_CONNECTIONS} connections, ${result.non2xx} non-2xx; p99 there ${result.latency.p99} ms)`,
  );
  return result['2xx'] / result.duration;
}

const ms = (v: number) => (v < 10 ? v.toFixed(1) : v.toFixed(0));

function row(label: string, p: Phase): string {
  const { latency: l, sent, ok, non2xx, errors } = p.result;
  const loop = p.eventLoop ? `${ms(p.eventLoop.p99Ms)} / ${ms(p.eventLoop.maxMs)}` : '-';
  return (
    `  ${label.padEnd(24)} ${`${p.rate.toFixed(0)}/s`.padStart(7)} ${ms(l.p50).padStart(6)} ${ms(l.p90).padStart(6)} ` +
    `${ms(l.p99).padStart(6)} ${ms(l.p999).padStart(7)} ${ms(l.max).padStart(6)}  ${loop.padStart(12)} ` +
    `${p.cpuUsPerRequest.toFixed(0).padStart(6)}  ${sent}/${ok}${non2xx + errors > 0 ? ` (${non2xx} non-2xx, ${errors} errors)` : ''}`
  );
}

async function main(): Promise<void> {
  console.log(
    `warden bench:latency: open loop, ${CONNECTIONS} connections, ${SECONDS} s per rate after ${WARM_EVENTS} distinct events; ` +
      `node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const receiver = await startReceiver();
  const warden = await startWarden(receiver.url, NODE_ARGS, 1);
  const headers = { 'x-site-key': warden.siteKey, 'x-secret-key': warden.secretKey };
  const wardenPhases: Phase[] = [];
  try {
    if (WARM_EVENTS > 0)
      await load({
        url: warden.url,
        headers,
        connections: CAPACITY_CONNECTIONS,
        amount: WARM_EVENTS,
        body: warmBody,
        next,
      });
    for (const scenario of SCENARIOS) {
      const full = await capacity(warden, headers, scenario);
      for (const percent of FRACTIONS)
        wardenPhases.push(await phase(warden, headers, scenario, percent, (full * percent) / 100, true));
    }
  } finally {
    await warden.stop();
    await receiver.stop();
  }
  const echoPhases = new Map<Phase, Phase>();
  if (ECHO) {
    const echo = await startEcho();
    try {
      for (const p of wardenPhases)
        echoPhases.set(p, await phase(echo, {}, p.scenario, p.percent, p.rate, false));
    } finally {
      await echo.stop();
    }
  }
  console.log(
    `\nlatency from the scheduled time, ms (event-loop delay p99 / max from the server's /metrics; CPU µs per answered request, all threads)`,
  );
  console.log(
    `  ${''.padEnd(24)} ${'rate'.padStart(7)} ${'p50'.padStart(6)} ${'p90'.padStart(6)} ${'p99'.padStart(6)} ${'p99.9'.padStart(7)} ${'max'.padStart(6)}  ${'loop delay'.padStart(12)} ${'CPU µs'.padStart(6)}  sent/2xx`,
  );
  for (const p of wardenPhases) {
    console.log(row(`warden ${p.scenario} ${p.percent} %`, p));
    const echo = echoPhases.get(p);
    if (echo) console.log(row(`echo   ${p.scenario} ${p.percent} %`, echo));
  }
  for (const p of wardenPhases) {
    console.log(`\nwarden ${p.scenario} at ${p.percent} % (${p.rate.toFixed(0)}/s), its own timeline:`);
    for (const line of p.timeline ?? []) console.log(`  ${line}`);
  }
  console.log(
    `load average now ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
