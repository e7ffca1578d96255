import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from './http/app.ts';
import { Readiness } from './readiness.ts';
import { dispatcherDeps } from './services.ts';
import { createTestContext, testAppOf } from './testing/context.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';

describe('/readyz waits for the start-up steps', () => {
  it('answers 503 not_ready while a step is pending or failed, 200 once all are done', async () => {
    const readiness = new Readiness();
    const ctx = { ...(await createTestContext({ env: { WARDEN_IP_DB: '0' } })), readiness };
    const t = testAppOf(await buildApp(ctx), ctx);
    try {
      let finish: () => void = () => undefined;
      readiness.track('history', new Promise<void>((resolve) => (finish = resolve)));
      const pending = await t.app.inject({ url: '/readyz' });
      expect(pending.statusCode).toBe(503);
      expect(pending.json().error.code).toBe('not_ready');
      expect(pending.json().error.message).toContain('"history":"pending"');
      finish();
      // The app's own step (the scoring engine's preparation) settles soon after.
      let ready = await t.app.inject({ url: '/readyz' });
      for (let i = 0; i < 500 && ready.statusCode !== 200; i++) {
        await new Promise((r) => setTimeout(r, 10));
        ready = await t.app.inject({ url: '/readyz' });
      }
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({
        status: 'ready',
        checks: { database: 'ok', hotState: 'ok', storage: 'ok', scoringEngine: 'ok', history: 'ok' },
      });
      readiness.track('demoSeed', Promise.reject(new Error('disk full')));
      await new Promise((r) => setImmediate(r));
      const failed = await t.app.inject({ url: '/readyz' });
      expect(failed.statusCode).toBe(503);
      expect(failed.json().error.message).toContain('"demoSeed":"failed: disk full"');
    } finally {
      await t.close();
    }
  });

  it('the decision writer thread and the webhook worker say when they are up', async () => {
    const ctx = await createTestContext({ sqliteFile: true });
    try {
      await ctx.services.decisions.writer.ready();
      const dispatcher = new WebhookDispatcher(dispatcherDeps(ctx), { pollIntervalMs: 10 });
      dispatcher.start();
      await dispatcher.started;
      await dispatcher.stop();
    } finally {
      await ctx.hotState.close();
      await ctx.database.close();
    }
  });
});

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/warden.js');

describe('warden serve is ready only when it can score', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-ready-'));
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      await new Promise((resolve) => {
        child?.once('exit', resolve);
        child?.kill('SIGTERM');
      });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('polls /readyz from the first moment: at 200 every step is done and the first decision succeeds', {
    timeout: 180_000,
  }, async () => {
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      env: { ...process.env, WARDEN_DATA_DIR: dir, WARDEN_HOST: '127.0.0.1', WARDEN_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stderr?.resume();
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child?.once('exit', (code) => reject(new Error(`server exited ${code}: ${stdout}`)));
      child?.stdout?.on('data', (chunk) => {
        stdout += String(chunk);
        const match = stdout.match(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/);
        if (match) resolve(match[1]!);
      });
    });
    const states: number[] = [];
    let body: { status?: string; checks?: Record<string, string> } = {};
    for (let i = 0; i < 3000; i++) {
      const res = await fetch(`${baseUrl}/readyz`);
      states.push(res.status);
      if (res.status === 200) {
        body = await res.json();
        break;
      }
      expect(res.status).toBe(503);
      expect((await res.json()).error.code).toBe('not_ready');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(states.at(-1)).toBe(200);
    // Ready means: migrated, the demo seeded (its credentials written), the scoring engine prepared
    // (IP database loaded, histories rebuilt), the writer thread and the webhook worker up.
    expect(body.checks).toEqual({
      database: 'ok',
      hotState: 'ok',
      storage: 'ok',
      scoringEngine: 'ok',
      decisionWriter: 'ok',
      webhookWorker: 'ok',
      demoSeed: 'ok',
    });
    const creds = JSON.parse(fs.readFileSync(path.join(dir, 'demo-credentials.json'), 'utf8'));
    const decision = await fetch(`${baseUrl}/api/antibot/verify`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-site-key': creds.siteKey,
        'x-secret-key': creds.secretKey,
      },
      body: JSON.stringify({
        context: { event_type: 'login', account_id: 'first_after_ready', ip_address: '8.8.8.8' },
      }),
    });
    expect(decision.status).toBe(201);
    expect((await decision.json()).data.request_id).toEqual(expect.any(String));
  });
});
