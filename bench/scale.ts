/**
 * Scale-mode and stall measurements (`node --import tsx bench/scale.ts [--duration s] [--connections n]
 * [--only sqlite|sqlite-webhooks|scale] [--cpu-prof]`): POST /api/antibot/verify with varied login and checkout
 * bodies against Warden as `warden serve` builds it (bench/scale-server.ts), in three setups:
 *   sqlite           embedded SQLite file + in-process hot state, no webhook
 *   sqlite-webhooks  the same with the site's webhook on and the delivery worker running (a local
 *                    receiver answers 200): the dispatcher's claims run while decisions commit
 *   scale            PostgreSQL (BENCH_DATABASE_URL, a fresh schema) + Redis (BENCH_REDIS_URL)
 * Prints per setup: decisions/s, CPU µs per decision (the Warden process, every thread; the
 * PostgreSQL and Redis servers are not counted), the main thread's event-loop delay p50/p99/max,
 * latency p50/p99, on SQLite the main thread's synchronous SQLite calls (longest, how many over
 * 10 ms: a wait for the writer thread's lock shows there), and the ratio of scale mode's CPU per
 * decision to SQLite's.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { arg } from './lib/args.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DURATION_S = Number(arg('duration') ?? 15);
const CONNECTIONS = Number(arg('connections') ?? 32);
const WARMUP_S = 3;
const ONLY = arg('only');
/** --cpu-prof: a .cpuprofile of each Warden process into bench/profiles/. */
const CPU_PROF = process.argv.includes('--cpu-prof');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/7';

interface Ready {
  port: string;
  siteKey: string;
  secretKey: string;
}
interface Stats {
  cpuUs: number;
  decisions: number;
  delivered: number;
  loopDelayMs: { p50: number; p99: number; max: number };
  mainThreadSqlite: { count: number; over10ms: number; maxMs: number; totalMs: number };
}

function start(env: Record<string, string>): Promise<[ChildProcess, Ready]> {
  const child = fork(path.join(HERE, 'scale-server.ts'), [], {
    env: { ...process.env, WARDEN_RATE_SERVER_PER_SECOND: '1000000', ...env },
    execArgv: [
      '--import',
      'tsx',
      ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(HERE, 'profiles')}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve([child, m as Ready]));
    child.once('exit', (code) => reject(new Error(`scale-server exited with ${code}`)));
  });
}

function ask<T>(child: ChildProcess, message: object): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (reply) => resolve(reply as T));
    child.send(message);
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.send({ type: 'stop' });
  });
}

let n = 0;
/** Varied events: 20,000 accounts over 5,000 addresses, one in five a failed login, some checkouts. */
function body(): string {
  const i = n++;
  const checkout = i % 10 === 0;
  const account = `acct_${(i * 7919) % 20_000}`;
  return JSON.stringify({
    context: {
      event_type: checkout ? 'checkout' : 'login',
      account_id: account,
      email: `${account}@example.com`,
      ip_address: `198.51.${(i >> 8) % 20}.${i % 250}`,
      user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36',
      ...(checkout
        ? { payment_hash: `pm_${i % 3000}`, order_amount: (i % 200) + 1 }
        : { login_succeeded: i % 5 !== 0 }),
    },
  });
}

function load(port: string, ready: Ready, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/antibot/verify',
        headers: {
          'content-type': 'application/json',
          'x-site-key': ready.siteKey,
          'x-secret-key': ready.secretKey,
        },
        setupRequest: (request) => ({ ...request, body: body() }),
      },
    ],
  });
}

async function run(
  name: string,
  env: Record<string, string>,
): Promise<Stats & { result: autocannon.Result }> {
  const [child, ready] = await start(env);
  await load(ready.port, ready, WARMUP_S);
  await ask(child, { type: 'mark' });
  const result = await load(ready.port, ready, DURATION_S);
  const stats = await ask<Stats>(child, { type: 'stats' });
  await stop(child);
  const perDecision = stats.cpuUs / Math.max(1, stats.decisions);
  const d = stats.loopDelayMs;
  console.log(
    `${name.padEnd(16)} ${(stats.decisions / DURATION_S).toFixed(0).padStart(6)} decisions/s  ` +
      `CPU ${perDecision.toFixed(0).padStart(5)} µs/decision  ` +
      `event-loop delay p50 ${d.p50.toFixed(1)} / p99 ${d.p99.toFixed(1)} / max ${d.max.toFixed(1)} ms  ` +
      `latency p50 ${result.latency.p50} / p99 ${result.latency.p99} ms` +
      (env.BENCH_WEBHOOK_URL ? `  webhooks delivered ${stats.delivered}` : '') +
      (env.WARDEN_DATABASE_URL
        ? ''
        : `\n${''.padEnd(17)}main-thread SQLite calls ${stats.mainThreadSqlite.count}: longest ` +
          `${stats.mainThreadSqlite.maxMs.toFixed(1)} ms, ${stats.mainThreadSqlite.over10ms} over 10 ms, ` +
          `${stats.mainThreadSqlite.totalMs.toFixed(0)} ms in all`) +
      (result.non2xx ? `  non-2xx ${result.non2xx}` : ''),
  );
  return { ...stats, result };
}

async function main(): Promise<void> {
  console.log(
    `scale bench: POST /api/antibot/verify, ${CONNECTIONS} connections, ${DURATION_S} s (+${WARMUP_S} s warm-up), node ${process.version}, ${os.cpus().length} CPUs`,
  );
  const results: Record<string, Stats> = {};
  const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'warden-scale-bench-'));
  if (!ONLY || ONLY === 'sqlite')
    results.sqlite = await run('sqlite', { WARDEN_DATA_DIR: tmp(), WARDEN_WEBHOOK_WORKER: '0' });
  if (!ONLY || ONLY === 'sqlite-webhooks') {
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    results.webhooks = await run('sqlite-webhooks', {
      WARDEN_DATA_DIR: tmp(),
      BENCH_WEBHOOK_URL: url,
      WARDEN_UNSAFE_WEBHOOK_TARGETS: '1',
    });
    receiver.close();
  }
  if (!ONLY || ONLY === 'scale') {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    try {
      const url = new URL(DATABASE_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      results.scale = await run('scale (pg+redis)', {
        WARDEN_DATA_DIR: tmp(),
        WARDEN_DATABASE_URL: url.toString(),
        WARDEN_REDIS_URL: REDIS_URL,
        WARDEN_WEBHOOK_WORKER: '0',
      });
    } finally {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  }
  if (results.sqlite && results.scale) {
    const per = (s: Stats) => s.cpuUs / Math.max(1, s.decisions);
    console.log(
      `scale mode CPU per decision / SQLite's: ${(per(results.scale) / per(results.sqlite)).toFixed(2)}×`,
    );
  }
}

await main();
