import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

import type { DemoCredentials } from '../../packages/server/src/workspace/demo-seed.ts';

export type { DemoCredentials };

export interface RunningServer {
  baseUrl: string;
  port: number;
  dataDir: string;
  demo: DemoCredentials;
  output: () => string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts `warden serve` on a free loopback port with a fresh data directory (the demo seed runs).
 * `env` may be a function of the port (e.g. for `WARDEN_PUBLIC_URL`).
 */
export async function startServer(
  env: Record<string, string> | ((port: number) => Record<string, string>) = {},
): Promise<RunningServer> {
  const port = await freePort();
  const extraEnv = typeof env === 'function' ? env(port) : env;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(ROOT, 'packages/server/bin/warden.js'),
      'serve',
      '--port',
      String(port),
      '--data-dir',
      dataDir,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, WARDEN_LOG_LEVEL: 'warn', WARDEN_HOST: '127.0.0.1', ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      'the server to answer /healthz',
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
        return (await fetch(`${baseUrl}/healthz`)).ok ? true : undefined;
      },
      60_000,
    );
    const credentials = path.join(dataDir, 'demo-credentials.json');
    const demo = await waitFor(
      'demo-credentials.json',
      async () => JSON.parse(fs.readFileSync(credentials, 'utf8')) as DemoCredentials,
      30_000,
    );
    return {
      baseUrl,
      port,
      dataDir,
      demo,
      output: () => output,
      async stop() {
        if (child.exitCode === null) child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- server output ---\n${output}`);
  }
}
