import { createHmac } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { dispatcherDeps } from '../services.ts';
import { createTestContext, testDialects } from '../testing/context.ts';
import { MAX_ATTEMPTS, retryDelayMs, WebhookDispatcher } from './dispatcher.ts';
import {
  configureWebhook,
  createSite,
  decisionRow,
  type LocalReceiver,
  setPlan,
  startReceiver,
  waitFor,
} from './test-fixtures.ts';

const UNSAFE = { WARDEN_UNSAFE_WEBHOOK_TARGETS: '1', WARDEN_WEBHOOK_BACKOFF_BASE_S: '0.05' };

function parseSignature(header: string): { t: number; v1: string } {
  const m = header.match(/^t=(\d+),v1=([0-9a-f]{64})$/);
  if (!m) throw new Error(`bad signature header ${header}`);
  return { t: Number(m[1]), v1: m[2]! };
}

describe('retry schedule', () => {
  it('is base × (1, 2, 4, 8) plus at most 10 % jitter', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(60, n, () => 0))).toEqual([
      60_000, 120_000, 240_000, 480_000,
    ]);
    expect(retryDelayMs(60, 1, () => 0.999)).toBeLessThanOrEqual(66_000);
  });
});

describe('dispatcher on a SQLite file (decision writer thread)', () => {
  it('claims and records results without waiting on this thread for the write lock', async () => {
    const ctx = await createTestContext({ sqliteFile: true, env: UNSAFE });
    const receiver = await startReceiver();
    try {
      const site = await createSite(ctx.database, 'pro');
      await configureWebhook(ctx.database, site.siteId, receiver.url);
      await ctx.services.decisions.record(decisionRow(site));
      // Another connection holds the write lock, as the writer thread does while it commits.
      const other = new SqliteDatabase(ctx.database.sqliteFile!);
      other.exec('begin immediate');
      let claimed = false;
      const round = new WebhookDispatcher(dispatcherDeps(ctx), { timeoutMs: 1_000 }).runOnce().then((n) => {
        claimed = true;
        return n;
      });
      // This thread runs on meanwhile: had the claim waited here for the lock, nothing would run
      // until it gave up (busy_timeout, 5 s) and failed.
      await new Promise((resolve) => setImmediate(resolve));
      expect(claimed).toBe(false);
      other.exec('commit');
      other.close();
      expect(await round).toBe(1);
      expect(receiver.requests).toHaveLength(1);
      const row = await ctx.database.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'attempts', 'lease_owner'])
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'succeeded', attempts: 1, lease_owner: null });
    } finally {
      await receiver.close();
      await ctx.hotState.close();
      await ctx.database.close();
    }
  });
});

describe.each(testDialects())('dispatcher on %s', (dialect) => {
  let ctx: AppContext;
  let receiver: LocalReceiver;
  const dispatchers: WebhookDispatcher[] = [];
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, env: UNSAFE });
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
    await receiver.close();
    await ctx.database.close();
  });

  function dispatcher(options: ConstructorParameters<typeof WebhookDispatcher>[1] = {}): WebhookDispatcher {
    const d = new WebhookDispatcher(dispatcherDeps(ctx), {
      pollIntervalMs: 20,
      timeoutMs: 1_000,
      ...options,
    });
    dispatchers.push(d);
    d.start();
    return d;
  }
  const delivery = (id?: string) =>
    ctx.database.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .$if(id !== undefined, (q) => q.where('id', '=', id!))
      .executeTakeFirstOrThrow();

  it('retries 500, timeout and redirect, then succeeds: stable id, exact bytes, fresh signatures', async () => {
    let skewMs = 0;
    ctx.now = () => Date.now() + skewMs;
    receiver.setHandler((_req, res, index) => {
      skewMs += 10_000; // every attempt happens "later": its signature must use a new timestamp
      if (index === 0) res.writeHead(500).end('boom');
      else if (index === 1) setTimeout(() => res.writeHead(200).end('too late'), 2_500);
      else if (index === 2) res.writeHead(302, { location: 'https://elsewhere.example/' }).end();
      else res.writeHead(204).end();
    });
    const site = await createSite(ctx.database, 'pro');
    const secret = await configureWebhook(ctx.database, site.siteId, receiver.url);
    await ctx.services.decisions.record(decisionRow(site));
    dispatcher();
    const row = await waitFor(async () => {
      const r = await delivery();
      return r.status === 'succeeded' ? r : undefined;
    });
    expect(row).toMatchObject({ attempts: 4, last_status_code: 204, last_error: null });
    expect(receiver.requests).toHaveLength(4);
    const timestamps = new Set<number>();
    for (const req of receiver.requests) {
      expect(req.method).toBe('POST');
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers['user-agent']).toBe('Service-Webhooks/1.0');
      expect(req.headers['service-delivery']).toBe(row.id);
      expect(req.body).toBe(row.payload);
      const { t, v1 } = parseSignature(String(req.headers['service-signature']));
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${req.body}`).digest('hex'));
      timestamps.add(t);
    }
    expect(timestamps.size).toBe(4);
    expect(JSON.parse(row.payload).id).toBe(row.id);
  });

  it('gives up after 5 attempts: failed, last status and a 2 KiB body kept', async () => {
    receiver.setHandler((_req, res) => res.writeHead(503).end('x'.repeat(10_000)));
    const site = await createSite(ctx.database, 'pro');
    await configureWebhook(ctx.database, site.siteId, receiver.url);
    await ctx.services.decisions.record(decisionRow(site));
    dispatcher();
    const row = await waitFor(async () => {
      const r = await delivery();
      return r.status === 'failed' ? r : undefined;
    });
    expect(row.attempts).toBe(MAX_ATTEMPTS);
    expect(row.last_status_code).toBe(503);
    expect(row.last_error).toBe('receiver answered HTTP 503');
    expect(row.last_response_body).toHaveLength(2048);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests).toHaveLength(MAX_ATTEMPTS);
  });

  it('records a timeout and a redirect as failures', async () => {
    receiver.setHandler((_req, res, index) => {
      if (index === 0) setTimeout(() => res.writeHead(200).end(), 2_500);
      else res.writeHead(301, { location: '/moved' }).end();
    });
    const site = await createSite(ctx.database, 'pro');
    await configureWebhook(ctx.database, site.siteId, receiver.url);
    await ctx.services.decisions.record(decisionRow(site));
    const d = new WebhookDispatcher(dispatcherDeps(ctx), { timeoutMs: 1_000, backoffBaseS: 0 });
    dispatchers.push(d);
    await d.runOnce();
    expect(await delivery()).toMatchObject({ attempts: 1, status: 'pending', last_status_code: null });
    expect((await delivery()).last_error).toMatch(/timeout/);
    await d.runOnce();
    expect(await delivery()).toMatchObject({ attempts: 2, last_status_code: 301 });
    expect((await delivery()).last_error).toMatch(/redirect 301 not followed/);
  });

  it('cancels at send time when the webhook was disabled or the plan lost', async () => {
    const a = await createSite(ctx.database, 'pro');
    const b = await createSite(ctx.database, 'pro');
    for (const s of [a, b]) {
      await configureWebhook(ctx.database, s.siteId, receiver.url);
      await ctx.services.decisions.record(decisionRow(s));
    }
    await configureWebhook(ctx.database, a.siteId, receiver.url, false);
    await setPlan(ctx.database, b.workspaceId, 'free');
    await new WebhookDispatcher(dispatcherDeps(ctx)).runOnce();
    const rows = await ctx.database.db.selectFrom('webhook_deliveries').selectAll().execute();
    expect(rows.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    expect(receiver.requests).toHaveLength(0);
  });

  it('connects only to the address it checked, keeping the Host name', async () => {
    const site = await createSite(ctx.database, 'pro');
    await configureWebhook(ctx.database, site.siteId, `http://hooks.example.com:${receiver.port}/in`);
    await ctx.services.decisions.record(decisionRow(site));
    const lookups: string[] = [];
    const d = new WebhookDispatcher(dispatcherDeps(ctx), {
      lookup: async (host) => {
        lookups.push(host);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    await d.runOnce();
    await d.stop();
    expect(lookups).toEqual(['hooks.example.com']);
    expect(receiver.requests[0]?.headers.host).toBe(`hooks.example.com:${receiver.port}`);
    expect((await delivery()).status).toBe('succeeded');
  });

  it('re-validates the URL on every attempt (strict mode refuses loopback, sends nothing)', async () => {
    const strictCtx = { ...ctx, config: { ...ctx.config, unsafeWebhookTargets: false } };
    const site = await createSite(ctx.database, 'pro');
    await configureWebhook(ctx.database, site.siteId, 'https://hooks.example.com/in');
    await ctx.services.decisions.record(decisionRow(site));
    const d = new WebhookDispatcher(dispatcherDeps(strictCtx), {
      lookup: async () => [{ address: '10.0.0.7', family: 4 }],
    });
    await d.runOnce();
    const row = await delivery();
    expect(row).toMatchObject({ attempts: 1, status: 'pending' });
    expect(row.last_error).toBe(
      'refused target: hooks.example.com resolves to 10.0.0.7 is a private address',
    );
  });

  it('shares the queue between several workers: every delivery sent, none twice', async () => {
    const site = await createSite(ctx.database, 'pro');
    await configureWebhook(ctx.database, site.siteId, receiver.url);
    const count = 150;
    await Promise.all(Array.from({ length: count }, () => ctx.services.decisions.record(decisionRow(site))));
    dispatcher({ batchSize: 10, concurrency: 16, timeoutMs: 10_000 });
    dispatcher({ batchSize: 10, concurrency: 16, timeoutMs: 10_000 });
    dispatcher({ batchSize: 10, concurrency: 16, timeoutMs: 10_000 });
    await waitFor(async () => {
      const pending = await ctx.database.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '!=', 'succeeded')
        .execute();
      return pending.length === 0 ? true : undefined;
    }, 50_000);
    const ids = receiver.requests.map((r) => String(r.headers['service-delivery']));
    expect(new Set(ids).size).toBe(count);
    expect(ids).toHaveLength(count);
    const metrics = await ctx.metrics.getSingleMetricAsString('warden_webhook_deliveries_total');
    expect(metrics).toContain(`warden_webhook_deliveries_total{status="succeeded"} ${count}`);
  }, 60_000);

  it('re-claims a delivery whose lease expired (crashed worker)', async () => {
    const site = await createSite(ctx.database, 'pro');
    await configureWebhook(ctx.database, site.siteId, receiver.url);
    await ctx.services.decisions.record(decisionRow(site));
    await ctx.database.db
      .updateTable('webhook_deliveries')
      .set({ lease_owner: 'dead-worker', lease_until: Date.now() + 60_000 })
      .execute();
    const d = new WebhookDispatcher(dispatcherDeps(ctx));
    expect(await d.runOnce()).toBe(0);
    await ctx.database.db
      .updateTable('webhook_deliveries')
      .set({ lease_until: Date.now() - 1 })
      .execute();
    expect(await d.runOnce()).toBe(1);
    expect((await delivery()).status).toBe('succeeded');
  });
});
