/**
 * The processes of `npm run bench`: Warden started as `npm start` starts it (packages/server/bin/
 * warden.js serve: bundled JavaScript, webhook worker on) on an embedded SQLite file in a temporary
 * data dir, with one Pro site whose webhook points at a receiver on loopback; the bare Fastify echo
 * (bundled the same way); the webhook receiver.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundle } from '../../packages/server/scripts/bundle.js';
import { loadConfig } from '../../packages/server/src/config.ts';
import { openConfiguredDatabase } from '../../packages/server/src/main.ts';
import { migrate } from '../../packages/server/src/storage/db.ts';
import { configureWebhook } from '../../packages/server/src/webhooks/test-fixtures.ts';
import { createSite } from '../../packages/server/src/workspace/sites.ts';
import { createWorkspace } from '../../packages/server/src/workspace/workspaces.ts';

const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WARDEN_BIN = path.resolve(BENCH_DIR, '../packages/server/bin/warden.js');

export interface Running {
  child: ChildProcess;
  pid: number;
  url: string;
  stop(): Promise<void>;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.removeAllListeners('exit');
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/** Resolves with the first stdout line that `pick` maps to a value (the rest goes to `passOn`). */
function firstLine<T>(child: ChildProcess, name: string, pick: (line: string) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    let found = false;
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (found) return;
      const value = pick(line);
      if (value !== undefined) {
        found = true;
        resolve(value);
      }
    });
  });
}

/**
 * A bench server (bench/`name`.ts) bundled like Warden's production build and started with `args`
 * and `env`; it prints `{"port": N}` on stdout once listening.
 */
export async function startBundled(
  name: string,
  { execArgv = [], args = [], env }: { execArgv?: string[]; args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<Running> {
  const file = await bundle(path.join(BENCH_DIR, `${name}.ts`), name);
  const child = spawn(process.execPath, [...execArgv, file, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(env ? { env } : {}),
  });
  const port = await firstLine(child, name, (l) => (JSON.parse(l) as { port: number }).port);
  return { child, pid: child.pid!, url: `http://127.0.0.1:${port}`, stop: stopper(child) };
}

/** The bare Fastify echo, bundled like Warden's production build. */
export function startEcho(execArgv: string[] = []): Promise<Running> {
  return startBundled('bench-echo-server', { execArgv });
}

export interface Receiver {
  url: string;
  /** Deliveries received so far, and their lags (ms from decision to receipt). */
  lags: number[];
  stop(): Promise<void>;
}

/** The webhook receiver (bench-webhook-receiver.ts) in its own process on loopback. */
export async function startReceiver(): Promise<Receiver> {
  const child = fork(path.join(BENCH_DIR, 'bench-webhook-receiver.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const lags: number[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the webhook receiver exited with ${code}`)));
    child.once('message', (m: { port: number }) => resolve(m.port));
  });
  child.on('message', (m: { type: string; lags?: number[] }) => {
    if (m.type === 'received') for (const lag of m.lags ?? []) lags.push(lag);
  });
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    lags,
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.send({ type: 'stop' });
      }),
  };
}

export interface Warden extends Running {
  siteKey: string;
  secretKey: string;
  dataDir: string;
}

/**
 * Seed a temporary data dir (one Pro workspace, one site, its webhook to `webhookUrl`), then run
 * `warden serve --workers <workers>` on it as `npm start` does. Loopback webhook targets need
 * WARDEN_UNSAFE_WEBHOOK_TARGETS=1 (refused when NODE_ENV=production); the server rate limit is
 * raised so that it never answers 429.
 */
export async function startWarden(webhookUrl: string, execArgv: string[] = [], workers = 1): Promise<Warden> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    WARDEN_DATA_DIR: dataDir,
    WARDEN_SEED_DEMO: '0',
    WARDEN_UNSAFE_WEBHOOK_TARGETS: '1',
    WARDEN_RATE_SERVER_PER_SECOND: '1000000',
  };
  const database = openConfiguredDatabase(loadConfig(env));
  let keys: { siteKey: string; secretKey: string };
  try {
    await migrate(database);
    const now = Date.now();
    const workspace = await createWorkspace(database.db, { name: 'Bench', plan: 'pro' }, now);
    const created = await createSite(
      database.db,
      { workspaceId: workspace.id, name: 'Bench site', allowedOrigins: ['https://shop.example'] },
      now,
    );
    keys = created.keys;
    await configureWebhook(database, created.site.id, webhookUrl);
  } finally {
    await database.close();
  }
  const child = spawn(
    process.execPath,
    [...execArgv, WARDEN_BIN, 'serve', '--host', '127.0.0.1', '--port', '0', '--workers', String(workers)],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await firstLine(child, 'warden serve', (line) => {
    try {
      const entry = JSON.parse(line) as { msg?: string; address?: string; level?: number };
      if (entry.level !== undefined && entry.level >= 40) process.stderr.write(`${line}\n`);
      return entry.msg === 'warden serving' ? entry.address : undefined;
    } catch {
      return undefined;
    }
  });
  // Later log lines (warnings, errors) are shown; the rest is read and dropped, as a log shipper would.
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    if (/"level":(4|5|6)\d/.test(line)) process.stderr.write(`warden: ${line}\n`);
  });
  const stop = stopper(child);
  return {
    child,
    pid: child.pid!,
    url,
    dataDir,
    ...keys,
    stop: async () => {
      await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface EventLoopDelay {
  p99Ms: number;
  maxMs: number;
}

/**
 * Event-loop delay from the server's own /metrics (prom-client's monitorEventLoopDelay, 10 ms
 * sampling interval, reset on every scrape): scrape once to start a window, again to read it.
 * The histogram measures how late its 10 ms timer fires, so 10 ms is subtracted.
 */
export async function eventLoopDelay(baseUrl: string): Promise<EventLoopDelay> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const value = (name: string) => {
    const match = new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text);
    return match ? Number(match[1]) * 1000 : Number.NaN;
  };
  return {
    p99Ms: Math.max(0, value('nodejs_eventloop_lag_p99_seconds') - 10),
    maxMs: Math.max(0, value('nodejs_eventloop_lag_max_seconds') - 10),
  };
}
