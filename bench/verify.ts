/**
 * POST /api/antibot/verify throughput and latency (`npm run bench`): the real Warden app as a child
 * process on an embedded SQLite database in a temporary data dir, driven by autocannon with varied,
 * realistic bodies (unique idempotency keys), then the same load against a bare Fastify echo of the
 * same body. Prints decisions/s, end-to-end p50/p99/p99.9, decision_ms p50/p99 (from the recorded
 * decisions), the server's peak RSS and the ratio to the echo.
 * Options: --duration <s> (default 10), --connections <n> (default 32), --rules <n> custom CEL
 * rules on the site (default 0), --cpu-prof (writes a .cpuprofile of the Warden process into
 * bench/profiles/).
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { bundle } from '../packages/server/scripts/bundle.js';
import { buildBodyPool } from './bench-bodies.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const DURATION_S = Number(arg('duration') ?? 10);
const CONNECTIONS = Number(arg('connections') ?? 32);
const WARMUP_S = 2;
const CPU_PROF = process.argv.includes('--cpu-prof');
const RULES = Number(arg('rules') ?? 0);

const TARGETS = { throughputRatio: 0.35, decisionP99Ms: 1, e2eP99Ms: 15, rssMb: 300 };

interface Ready {
  type: 'ready';
  port: string;
  siteKey?: string;
  secretKey?: string;
}
interface ServerStats {
  type: 'stats';
  /** CPU time the server process used since 'mark'. */
  cpuMs: number;
  peakRss: number;
  decisions: number;
  decisionMs: { p50: number; p99: number; p999: number };
}

/**
 * Start a bench server as production runs Warden: bundled into plain JavaScript by the CLI's
 * bundler (packages/server/scripts/bundle.js), without the TypeScript loader.
 */
async function start(
  script: string,
  env: Record<string, string>,
  execArgv: string[] = [],
): Promise<[ChildProcess, Ready]> {
  const bundled = await bundle(path.join(HERE, `${script}.ts`), script);
  const child = fork(bundled, [], {
    env: { ...process.env, ...env },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve([child, message as Ready]));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
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

const pool = buildBodyPool();
let requestNumber = 0;

async function load(
  port: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/antibot/verify',
        headers: { 'content-type': 'application/json', ...headers },
        setupRequest: (request) => ({ ...request, body: pool.body(requestNumber++) }),
      },
    ],
  });
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

async function main(): Promise<void> {
  console.log(
    `warden bench: POST /api/antibot/verify, ${CONNECTIONS} connections, ${DURATION_S} s (+${WARMUP_S} s warm-up), ` +
      `${pool.size} body templates, ${RULES} custom rules, node ${process.version}, ${os.cpus().length} CPUs`,
  );

  const [echo, echoReady] = await start('bench-echo-server', {});
  await load(echoReady.port, {}, WARMUP_S);
  await ask(echo, { type: 'mark' });
  const echoResult = await load(echoReady.port, {}, DURATION_S);
  const echoCpu = await ask<{ cpuMs: number }>(echo, { type: 'stats' });
  await stop(echo);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-bench-'));
  const profDir = path.join(HERE, 'profiles');
  const [warden, ready] = await start(
    'bench-warden-server',
    {
      WARDEN_DATA_DIR: dataDir,
      WARDEN_RATE_SERVER_PER_SECOND: '1000000',
      WARDEN_WEBHOOK_WORKER: '0',
      WARDEN_BENCH_RULES: String(RULES),
    },
    CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
  );
  const auth = { 'x-site-key': ready.siteKey!, 'x-secret-key': ready.secretKey! };
  await load(ready.port, auth, WARMUP_S);
  const since = Date.now();
  await ask(warden, { type: 'mark' });
  const result = await load(ready.port, auth, DURATION_S);
  const stats = await ask<ServerStats>(warden, { type: 'stats', since });
  await stop(warden);
  fs.rmSync(dataDir, { recursive: true, force: true });

  const decisionsPerS = result['2xx'] / result.duration;
  const echoPerS = echoResult['2xx'] / echoResult.duration;
  const ratio = decisionsPerS / echoPerS;
  const rssMb = stats.peakRss / 1024 / 1024;
  // CPU per answered request is robust to other load on the machine; wall-clock rates are not.
  const echoCpuPerReq = echoCpu.cpuMs / Math.max(1, echoResult['2xx']);
  const wardenCpuPerReq = stats.cpuMs / Math.max(1, result['2xx']);
  const row = (label: string, value: string, ok?: boolean) =>
    console.log(
      `  ${label.padEnd(28)} ${value.padStart(14)}${ok === undefined ? '' : ok ? '   ok' : '   MISSED'}`,
    );

  console.log('\nbare Fastify echo');
  row('requests/s', echoPerS.toFixed(0));
  row(
    'latency p50 / p99 / p99.9',
    `${echoResult.latency.p50} / ${echoResult.latency.p99} / ${echoResult.latency.p99_9} ms`,
  );
  row('server CPU per request', ms(echoCpuPerReq));
  console.log('\nwarden /verify');
  row('decisions/s', decisionsPerS.toFixed(0));
  row('non-2xx / errors', `${result.non2xx} / ${result.errors}`, result.non2xx === 0 && result.errors === 0);
  row('latency p50', `${result.latency.p50} ms`);
  row('latency p99', `${result.latency.p99} ms`, result.latency.p99 <= TARGETS.e2eP99Ms);
  row('latency p99.9', `${result.latency.p99_9} ms`);
  row('decision_ms p50', ms(stats.decisionMs.p50));
  row('decision_ms p99', ms(stats.decisionMs.p99), stats.decisionMs.p99 <= TARGETS.decisionP99Ms);
  row('decisions recorded', String(stats.decisions));
  row('peak RSS', `${rssMb.toFixed(0)} MB`, rssMb <= TARGETS.rssMb);
  row('server CPU per decision', ms(wardenCpuPerReq));
  row('throughput vs echo', `${ratio.toFixed(2)}x`, ratio >= TARGETS.throughputRatio);
  row('CPU-cost ratio (echo/warden)', `${(echoCpuPerReq / wardenCpuPerReq).toFixed(2)}x`);
  console.log(
    `\n  load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} CPUs`,
  );
  if (CPU_PROF) console.log(`\nCPU profile written to ${profDir}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
