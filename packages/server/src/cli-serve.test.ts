import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './storage/db.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/warden.js');

interface Server {
  child: ChildProcess;
  stderr: () => string;
  baseUrl: string;
}

/** Start `warden serve` on a free loopback port and wait for its "warden serving" log line. */
async function startServer(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env: { ...process.env, WARDEN_DATA_DIR: dataDir, WARDEN_HOST: '127.0.0.1', WARDEN_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`server did not start:\n${stdout}\n${stderr}`));
    }, 90_000);
    child.once('exit', (code) => reject(new Error(`server exited ${code}:\n${stdout}\n${stderr}`)));
    child.stdout!.on('data', (chunk) => {
      stdout += String(chunk);
      const match = stdout.match(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return { child, stderr: () => stderr, baseUrl };
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

/** Poll until `done()` (the seed runs right after listen); generous, as CI machines can be busy. */
async function waitUntil(done: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

describe('warden serve seeds the demo workspace', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-serve-'));
  const servers: Server[] = [];
  afterAll(async () => {
    for (const s of servers) await stop(s);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints the credentials once, writes them 0600, and they sign in', { timeout: 240_000 }, async () => {
    const first = await startServer(dir);
    servers.push(first);
    const file = path.join(dir, 'demo-credentials.json');
    await waitUntil(() => fs.existsSync(file));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const creds = JSON.parse(fs.readFileSync(file, 'utf8'));
    // Wait until the banner is out, then check it carries the password.
    await waitUntil(() => first.stderr().includes('secret key'));
    expect(first.stderr()).toContain(creds.password);

    const login = await fetch(`${first.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: creds.email, password: creds.password }),
    });
    expect(login.status).toBe(200);
    const { data } = (await login.json()) as { data: { accessToken: string } };
    const site = await fetch(`${first.baseUrl}/api/sites/${creds.siteId}`, {
      headers: { authorization: `Bearer ${data.accessToken}` },
    });
    const body = (await site.json()) as { data: { allowedOrigins: string[] } };
    expect(body.data.allowedOrigins).toContain(first.baseUrl);
    expect(body.data.allowedOrigins).toContain(first.baseUrl.replace('127.0.0.1', 'localhost'));
    await stop(first);

    // Restart on the same data: no new demo, no banner, same file.
    const second = await startServer(dir);
    servers.push(second);
    await new Promise((r) => setTimeout(r, 500));
    expect(second.stderr()).not.toContain('demo workspace created');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(creds);
    await stop(second);
  });

  it('scores through the decision writer thread, which the built server finds', {
    timeout: 240_000,
  }, async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-serve-writer-'));
    const server = await startServer(own);
    servers.push(server);
    try {
      const file = path.join(own, 'demo-credentials.json');
      await waitUntil(() => fs.existsSync(file));
      const creds = JSON.parse(fs.readFileSync(file, 'utf8'));
      const scored = await fetch(`${server.baseUrl}/api/antibot/verify`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-site-key': creds.siteKey,
          'x-secret-key': creds.secretKey,
        },
        body: JSON.stringify({
          context: {
            event_type: 'login',
            account_id: 'u_1',
            ip_address: '203.0.113.7',
            user_agent: 'curl/8',
          },
        }),
      });
      expect(scored.status).toBe(201);
      const { data } = (await scored.json()) as { data: { request_id: string } };
      await stop(server);
      const database = openDatabase({ sqlitePath: path.join(own, 'warden.db') });
      try {
        const row = await database.db
          .selectFrom('decisions')
          .select('id')
          .where('id', '=', data.request_id)
          .executeTakeFirst();
        expect(row?.id).toBe(data.request_id);
      } finally {
        await database.close();
      }
      // Had the worker file not been found, the server would say so and commit on the main thread.
      expect(server.stderr()).not.toContain('decision writer thread stopped');
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  });
});
