/**
 * Helpers for the soak benchmark (bench/soak.ts): a Warden server started exactly as `npm start`
 * starts it (the `warden` CLI on an embedded SQLite data dir), its RSS from /proc, and request
 * bodies in which every event is a new account, IP, e-mail, device and payment hash.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WARDEN = path.join(ROOT, 'packages/server/bin/warden.js');

export interface SoakServer {
  child: ChildProcess;
  port: number;
  siteKey: string;
  secretKey: string;
  dataDir: string;
  /** Stop the server; `beforeRemove` reads its data dir before it is deleted. */
  stop(beforeRemove?: (dataDir: string) => void): Promise<void>;
}

/** Run a `warden` CLI command that prints one JSON object. */
async function warden(args: string[], env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(process.execPath, [WARDEN, ...args], { env, cwd: ROOT });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/**
 * `warden init` (a workspace on `plan` and its first site) in a fresh temporary data dir, then
 * `warden serve` on 127.0.0.1:`port` with the webhook worker on (the production default).
 */
export async function startSoakServer(
  port: number,
  extraEnv: Record<string, string> = {},
  plan = 'pro',
  nodeArgs: string[] = [],
): Promise<SoakServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-soak-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WARDEN_DATA_DIR: dataDir,
    WARDEN_HOST: '127.0.0.1',
    WARDEN_PORT: String(port),
    WARDEN_LOG_LEVEL: 'warn',
    WARDEN_SEED_DEMO: '0',
    WARDEN_RATE_SERVER_PER_SECOND: '1000000',
    NODE_ENV: 'production',
    ...extraEnv,
  };
  const onboarded = await warden(
    ['init', '--email', 'soak@example.com', '--password', 'soak-password-1', '--plan', plan],
    env,
  );
  const child = spawn(process.execPath, [...nodeArgs, WARDEN, 'serve', '--workers', '1'], {
    env,
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHealth(port, child);
  return {
    child,
    port,
    siteKey: String(onboarded.siteKey),
    secretKey: String(onboarded.secretKey),
    dataDir,
    stop: async (beforeRemove) => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      try {
        beforeRemove?.(dataDir);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`warden serve exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('warden serve did not become healthy within 60 s');
}

/**
 * Where the memory of a process is (for --detail): RSS split into anonymous and file-backed pages
 * (/proc status), and the V8 heap of its main thread from its /metrics (prom-client's defaults):
 * used and total, and the total of its new (young generation), old, code and large-object spaces.
 */
export async function memoryDetail(pid: number, port: number): Promise<string> {
  let status = '';
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  let text = '';
  try {
    text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  } catch {
    // not answering: the V8 figures are left out
  }
  const metric = (name: string) =>
    Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  const space = (name: string) => metric(`nodejs_heap_space_size_total_bytes\\{space="${name}"\\}`);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  return (
    `anon ${mb(kb('RssAnon') * 1024)} file ${mb(kb('RssFile') * 1024)} MB; ` +
    `V8 heap used ${mb(metric('nodejs_heap_size_used_bytes'))} of ${mb(metric('nodejs_heap_size_total_bytes'))} MB ` +
    `(new ${mb(space('new'))} old ${mb(space('old'))} code ${mb(space('code'))} large ${mb(space('large_object'))}), ` +
    `external ${mb(metric('nodejs_external_memory_bytes'))} MB`
  );
}

/** CPU time (user + system, all threads) a process has used, in ms (Linux /proc), 0 when it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
/** USER_HZ: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Resident set size of a process in bytes (Linux /proc), 0 when it is gone. */
export function rssOf(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

const EVENT_TYPES = ['login', 'login', 'login', 'signup', 'page_view', 'checkout', 'promo_claim'];
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
];

/**
 * Body number `n` of a high-cardinality stream: a new account, IPv4 address, e-mail, device
 * fingerprint, nonce and (on checkouts) payment hash for every `n`.
 */
export function highCardinalityBody(n: number): string {
  const eventType = EVENT_TYPES[n % EVENT_TYPES.length]!;
  const ip = `${11 + ((n >>> 24) & 63)}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
  const context: Record<string, unknown> = {
    event_type: eventType,
    account_id: `soak_acct_${n}`,
    ip_address: ip,
    email: `soak.user.${n}@example.com`,
    user_agent: USER_AGENTS[n % USER_AGENTS.length],
    request_url: `https://shop.example/${eventType}`,
  };
  if (eventType === 'login') context.login_succeeded = n % 5 !== 0;
  if (eventType === 'checkout') {
    context.order_amount = (n % 9000) / 100 + 1;
    context.payment_hash = `pm_soak_${n.toString(36)}`;
  }
  const fingerprint = {
    canvas_hash: `c${n.toString(16).padStart(31, '0')}`,
    audio_hash: `a${(n * 7919).toString(16).padStart(15, '0')}`,
    webgl: { vendor: 'Google Inc.', renderer: 'ANGLE (NVIDIA GeForce RTX 3060)' },
    screen: { width: 1920, height: 1080, color_depth: 24 },
    timezone: 'Europe/Berlin',
    languages: ['en-US', 'en'],
    hardware_concurrency: 8,
    fonts: ['Arial', 'Helvetica', 'Verdana'],
    user_agent: context.user_agent,
  };
  const environment = {
    sdk_version: '1.0.0',
    webdriver: false,
    webdriver_defined: 'absent',
    cdp: false,
    timestamp: Date.now(),
    nonce: `soak-${n}`,
  };
  return JSON.stringify({ context, fingerprint, environment });
}

/** Least-squares slope of y over x. */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  let sx = 0;
  let sy = 0;
  for (const [x, y] of points) {
    sx += x;
    sy += y;
  }
  const mx = sx / n;
  const my = sy / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? Number.NaN : num / den;
}
