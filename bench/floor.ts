/**
 * `npm run bench:floor`: what the work the interface obliges per /verify decision costs with no
 * scoring at all, built as lean as this bench knows how in Node on this machine: the floor under
 * `npm run bench`'s ratio to the echo. The same load as `npm run bench` (autocannon, 32 connections,
 * a new account/IP/e-mail per event, the same bare ~0.3 KB and evidence ~7 KB bodies) against a
 * ladder of servers, each its own process, measured alternately in one run:
 *   1 echo      the bench's bare Fastify echo (bench-echo-server.ts)
 *   2 validate  + site key and secret key check, the body checked against VerificationRequest
 *               (TypeBox's compiled check, as Warden's route), the behaviour-sample limit, a
 *               constant decision with fresh ids answered 201 (bench/floor-server.ts)
 *   3 durable   + the decision row (Warden's `decisions` columns and indexes, JSON columns of
 *               Warden's sizes) and for keyed bodies the idempotency-key row, group-committed on a
 *               writer thread with Warden's SQLite settings; answered only after commit
 *   4 webhook   + the outbox row in the same commit, one HMAC-SHA256-signed POST per decision over
 *               keep-alive undici to a receiver process on loopback, the delivered marks written back
 *               in the next commit
 * Levels 3 and 4 first get `--warm N` events (default 3000) into their tables. Each measurement gets
 * 3 s of warm-up. `--rounds R` (default 2) repeats the ladder, every second round in reverse order,
 * so that drift on a shared machine spreads over all levels. Printed: CPU µs per request by thread
 * (from /proc: main, writer thread, others = GC, JIT, libuv) and in total, the ratio to the echo
 * measured in the same round, requests/s, latency p50/p99.
 * Options: --duration <s> (default 15), --connections <n> (32), --warm <N> (3000), --rounds <R> (2),
 * --scenarios bare,evidence, --levels 1,2,3,4, --threads (every thread's CPU per request),
 * --lean-row (levels 3–4 store no features/evidence/rule-input JSON: only what the interface needs),
 * --rate <n> (requests/s over all connections, e.g. Warden's own rate: CPU per request grows as the
 * rate falls, since group commits and socket writes gather fewer requests per turn).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { arg } from './lib/args.ts';
import { load } from './lib/load.ts';
import { cpuSince, readThreadTicks, threadsSince } from './lib/proc-stat.ts';
import { type Running, startBundled, startEcho, startReceiver } from './lib/servers.ts';
import { SCENARIO_BODIES, type Scenario, warmBody } from './lib/verify-bodies.ts';

const DURATION_S = Number(arg('duration') ?? 15);
const CONNECTIONS = Number(arg('connections') ?? 32);
const WARM_EVENTS = Number(arg('warm') ?? 3000);
const ROUNDS = Number(arg('rounds') ?? 2);
const SCENARIOS = (arg('scenarios') ?? 'bare,evidence').split(',') as Scenario[];
const LEVELS = (arg('levels') ?? '1,2,3,4').split(',').map(Number);
const THREADS = process.argv.includes('--threads');
const LEAN_ROW = process.argv.includes('--lean-row');
const RATE = arg('rate') === undefined ? undefined : Number(arg('rate'));
const WARMUP_S = 3;
const NAMES = ['', 'echo', 'validate', 'durable', 'webhook'];

let eventNumber = 0;
const next = () => eventNumber++;

interface Measured {
  level: number;
  round: number;
  requests: number;
  failed: number;
  perSecond: number;
  cpuUs: { main: number; writer: number; others: number; total: number };
  p50: number;
  p99: number;
}

const answered = new Map<number, number>();

async function measure(server: Running, headers: Record<string, string>, scenario: Scenario, level: number) {
  const options = {
    url: server.url,
    headers,
    connections: CONNECTIONS,
    body: SCENARIO_BODIES[scenario],
    next,
    ...(RATE ? { rate: RATE } : {}),
  };
  const warm = await load({ ...options, seconds: WARMUP_S });
  const before = readThreadTicks(server.pid);
  const result = await load({ ...options, seconds: DURATION_S });
  const after = readThreadTicks(server.pid);
  const ok = Math.max(1, result['2xx']);
  answered.set(level, (answered.get(level) ?? 0) + warm['2xx'] + result['2xx']);
  if (THREADS)
    console.log(
      `  ${NAMES[level]} ${scenario}, CPU µs per request by thread: ` +
        threadsSince(before, after)
          .map((t) => `${t.tid}/${t.group} ${(t.us / ok).toFixed(0)}`)
          .join(', '),
    );
  const cpu = cpuSince(before, after);
  return {
    requests: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
    perSecond: result['2xx'] / result.duration,
    cpuUs: {
      main: cpu.main / ok,
      writer: cpu.writer / ok,
      others: cpu.others / ok,
      total: (cpu.main + cpu.primary + cpu.writer + cpu.others) / ok,
    },
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

function report(scenario: Scenario, rows: Measured[]): void {
  const kb = (SCENARIO_BODIES[scenario](0).length / 1024).toFixed(1);
  const notes = `${LEAN_ROW ? ', --lean-row' : ''}${RATE ? `, --rate ${RATE}` : ''}`;
  console.log(`\n${scenario} bodies (${kb} KB), CPU µs per request${notes}`);
  const cells = [
    'level',
    'round',
    'main',
    'writer',
    'others',
    'total',
    'x echo',
    'req/s',
    'p50/p99 ms',
    '2xx/failed',
  ];
  const widths = [12, 5, 6, 6, 6, 6, 7, 7, 11, 12];
  const line = (values: string[]) =>
    console.log(
      `  ${values.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join(' ')}`,
    );
  line(cells);
  const echoOf = (round: number) => rows.find((r) => r.level === 1 && r.round === round)?.cpuUs.total;
  for (const level of LEVELS)
    for (const r of rows.filter((row) => row.level === level)) {
      const echo = echoOf(r.round);
      line([
        `${level} ${NAMES[level]}`,
        String(r.round),
        r.cpuUs.main.toFixed(0),
        r.cpuUs.writer.toFixed(0),
        r.cpuUs.others.toFixed(0),
        r.cpuUs.total.toFixed(0),
        echo ? `${(r.cpuUs.total / echo).toFixed(1)}x` : '-',
        r.perSecond.toFixed(0),
        `${r.p50}/${r.p99}`,
        `${r.requests}/${r.failed}`,
      ]);
    }
  const mean = (level: number) => {
    const of = rows.filter((r) => r.level === level);
    return of.reduce((sum, r) => sum + r.cpuUs.total, 0) / Math.max(1, of.length);
  };
  if (LEVELS.includes(1))
    console.log(
      `  mean total (ratio to the mean echo): ${LEVELS.map(
        (level) => `${NAMES[level]} ${mean(level).toFixed(0)} (${(mean(level) / mean(1)).toFixed(1)}x)`,
      ).join(', ')}`,
    );
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

/** Deliveries received for level 4's decisions, and its outbox rows by status (delivered marks). */
async function reportWebhooks(server: Running, lags: number[], file: string): Promise<void> {
  const decisions = answered.get(4) ?? 0;
  for (let waited = 0; lags.length < decisions && waited < 10_000; waited += 200)
    await new Promise((resolve) => setTimeout(resolve, 200));
  await new Promise((resolve) => setTimeout(resolve, 500)); // the last delivered marks
  await server.stop();
  const db = new Database(file, { readonly: true });
  const marks = db.prepare('select status, count(*) as n from webhook_deliveries group by status').all() as {
    status: string;
    n: number;
  }[];
  db.close();
  console.log(
    `\nwebhooks (level 4): ${lags.length} deliveries received for ${decisions} decisions answered ` +
      `(warm-ups included; answers in flight when a load stops are not counted); lag p50 ` +
      `${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms; outbox rows by status: ` +
      marks.map((m) => `${m.status} ${m.n}`).join(', '),
  );
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(
    `floor bench: POST /api/antibot/verify, ${CONNECTIONS} connections, ${DURATION_S} s per measurement ` +
      `(+${WARMUP_S} s warm-up), ${ROUNDS} rounds, levels ${LEVELS.join(',')}${RATE ? `, ${RATE} requests/s` : ''}; node ${process.version}, ` +
      `${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}; CPU from /proc, all threads`,
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-floor-'));
  const receiver = await startReceiver();
  const site = { id: 'site_floor', key: `pk_${randomBytes(12).toString('hex')}` };
  const headers = { 'x-site-key': site.key, 'x-secret-key': `sk_${randomBytes(24).toString('hex')}` };
  const servers = new Map<number, Running>();
  try {
    for (const level of LEVELS) {
      const server =
        level === 1
          ? await startEcho()
          : await startBundled('floor-server', {
              args: ['--level', String(level)],
              env: {
                ...process.env,
                FLOOR_SITE_ID: site.id,
                FLOOR_SITE_KEY: site.key,
                FLOOR_SECRET_KEY: headers['x-secret-key'],
                FLOOR_WRITER: path.join(import.meta.dirname, 'floor-writer.worker.mjs'),
                FLOOR_DB: path.join(dataDir, `level-${level}.db`),
                FLOOR_WEBHOOK_URL: receiver.url,
                FLOOR_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64url')}`,
                FLOOR_LEAN_ROW: LEAN_ROW ? '1' : '0',
              },
            });
      servers.set(level, server);
      if (level >= 3 && WARM_EVENTS > 0) {
        const warm = await load({
          url: server.url,
          headers,
          connections: CONNECTIONS,
          amount: WARM_EVENTS,
          body: warmBody,
          next,
        });
        answered.set(level, (answered.get(level) ?? 0) + warm['2xx']);
      }
    }
    const results = new Map<Scenario, Measured[]>(SCENARIOS.map((s) => [s, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? LEVELS : [...LEVELS].reverse();
      for (const scenario of SCENARIOS)
        for (const level of order) {
          const m = await measure(servers.get(level)!, headers, scenario, level);
          results.get(scenario)!.push({ level, round, ...m });
        }
    }
    for (const scenario of SCENARIOS) report(scenario, results.get(scenario)!);
    if (servers.has(4))
      await reportWebhooks(servers.get(4)!, receiver.lags, path.join(dataDir, 'level-4.db'));
  } finally {
    for (const server of servers.values()) await server.stop();
  }
  await receiver.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(
    `load average now ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; run took ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
