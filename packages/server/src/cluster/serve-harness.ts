// Test and bench harness: `warden serve --workers N` as a child process on a loopback port, and
// requests each on a new connection (so the primary's round robin spreads them over the workers).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/warden.js');

export interface ServedCluster {
  child: ChildProcess;
  baseUrl: string;
  dataDir: string;
  output: () => string;
  /** The demo site's keys (the server seeds the demo workspace). */
  demo: { siteKey: string; secretKey: string; siteId: string };
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { data?: Record<string, unknown>; error?: { code: string } } & Record<string, unknown>;
}

/** One request on its own connection (no keep-alive). */
export function request(
  baseUrl: string,
  method: string,
  route: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${route}`,
      {
        method,
        agent: false,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          connection: 'close',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Start `warden serve` with `workers` workers on a free port; resolves once /readyz answers 200. */
export async function startCluster(
  dataDir: string,
  workers: number,
  env: Record<string, string> = {},
): Promise<ServedCluster> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--workers', String(workers)], {
    env: {
      ...process.env,
      WARDEN_DATA_DIR: dataDir,
      WARDEN_HOST: '127.0.0.1',
      WARDEN_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr!.on('data', (chunk) => {
    output += String(chunk);
  });
  const started = Date.now();
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      // The banner names the demo site's URL, also at log level warn.
      const match = output.match(/dashboard:\s+(http:\/\/127\.0\.0\.1:\d+)\/dashboard\//);
      if (match) {
        clearInterval(timer);
        resolve(match[1]!);
      } else if (child.exitCode !== null || Date.now() - started > 120_000) {
        clearInterval(timer);
        child.kill('SIGKILL');
        reject(new Error(`server did not start:\n${output}`));
      }
    }, 100);
  });
  for (;;) {
    const ready = await request(baseUrl, 'GET', '/readyz').catch(() => null);
    if (ready?.status === 200) break;
    if (Date.now() - started > 180_000) throw new Error(`never ready: ${JSON.stringify(ready?.body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
  return { child, baseUrl, dataDir, output: () => output, demo };
}

export async function stopCluster(served: ServedCluster): Promise<void> {
  if (served.child.exitCode !== null || served.child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    served.child.once('exit', () => resolve());
    served.child.kill('SIGTERM');
  });
}

/** The processes whose parent is `pid` (a primary's workers), from /proc. */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}
