// `warden serve` that cannot start exits non-zero within seconds with one line on stderr: the real
// CLI, spawned on a port this test holds, with a bad setting, with a database nobody listens for.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/warden.js');
/** Generous for a busy CI machine; the process normally exits in 1–4 s. */
const EXIT_WITHIN_MS = 30_000;

interface Exit {
  code: number | null;
  stderr: string;
  ms: number;
}

function serve(args: string[], dataDir: string): Promise<Exit> {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--seed-demo', 'false', ...args], {
    env: { ...process.env, WARDEN_DATA_DIR: dataDir, WARDEN_HOST: '127.0.0.1', WARDEN_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_WITHIN_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ms: Date.now() - started });
    });
  });
}

/** The lines of stderr other than Node's own warnings. */
function wardenLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('warden '));
}

/** A loopback port nobody listens on: bound, noted and released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('warden serve fails loudly at start-up', { timeout: 60_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-start-fail-'));
  const holder = net.createServer();
  let held = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    held = (holder.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => holder.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exits 1 with one line when the port is taken', async () => {
    const exit = await serve(['--port', String(held)], path.join(dir, 'taken'));
    expect(exit.code).toBe(1);
    expect(wardenLines(exit.stderr)).toEqual([
      `warden serve: cannot listen on 127.0.0.1:${held}: the port is already in use; stop the other process or set WARDEN_PORT (--port)`,
    ]);
  });

  it('exits 1 with one line when the metrics port is taken', async () => {
    const exit = await serve(['--port', '0', '--metrics-port', String(held)], path.join(dir, 'metrics'));
    expect(exit.code).toBe(1);
    expect(wardenLines(exit.stderr)).toEqual([
      `warden serve: cannot listen on 127.0.0.1:${held}: the port is already in use; stop the other process or set WARDEN_METRICS_PORT (--metrics-port)`,
    ]);
  });

  it('exits 1 with one line when a worker of --workers 2 cannot listen', async () => {
    const exit = await serve(['--port', String(held), '--workers', '2'], path.join(dir, 'workers'));
    expect(exit.code).toBe(1);
    expect(wardenLines(exit.stderr)).toEqual([
      `warden serve: cannot listen on 127.0.0.1:${held}: the port is already in use; stop the other process or set WARDEN_PORT (--port)`,
    ]);
  });

  it('exits 2 with one line for a bad setting, before opening anything', async () => {
    const data = path.join(dir, 'bad-config');
    const exit = await serve(['--port', '70000'], data);
    expect(exit.code).toBe(2);
    expect(wardenLines(exit.stderr)).toEqual([
      'warden serve: WARDEN_PORT: must be between 0 and 65535, got 70000',
    ]);
    expect(fs.existsSync(data)).toBe(false);
  });

  it('exits 1 with one line naming the database (no password) when PostgreSQL is unreachable', async () => {
    const port = await closedPort();
    const exit = await serve(
      ['--port', '0', '--database-url', `postgres://warden:hunter2secret@127.0.0.1:${port}/warden`],
      path.join(dir, 'pg'),
    );
    expect(exit.code).toBe(1);
    expect(wardenLines(exit.stderr)).toEqual([
      `warden serve: cannot use the database at postgres://127.0.0.1:${port}/warden: connection refused (is the database server running and listening there?)`,
    ]);
    expect(exit.stderr).not.toContain('hunter2secret');
  });

  it('exits 1 with one line naming Redis (no password) when WARDEN_REDIS_URL is unreachable', async () => {
    const port = await closedPort();
    const exit = await serve(
      ['--port', '0', '--redis-url', `redis://:hunter2secret@127.0.0.1:${port}/0`],
      path.join(dir, 'redis'),
    );
    expect(exit.code).toBe(1);
    expect(wardenLines(exit.stderr)).toEqual([
      `warden serve: cannot use the Redis at redis://127.0.0.1:${port}/0: no connection (is the Redis server running and listening there?); check WARDEN_REDIS_URL (--redis-url)`,
    ]);
    expect(exit.stderr).not.toContain('hunter2secret');
  });

  it('exits 1 with one line when the SQLite file cannot be created', async () => {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    const exit = await serve(['--port', '0'], path.join(file, 'data'));
    expect(exit.code).toBe(1);
    const lines = wardenLines(exit.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^warden serve: cannot use the database file .*a-file\/data\/warden\.db: ENOTDIR/,
    );
  });
});
