/**
 * Webhook delivery benchmark: one process records decisions (decision + outbox row in one
 * transaction) at a fixed rate while the dispatcher delivers them to a receiver on loopback.
 * Prints sustained deliveries/s and the lag from decision to receipt (p50/p99/max).
 *
 *   npm run bench:webhooks                       # 2,500 decisions/s for 10 s on a SQLite file
 *   BENCH_RATE=4000 BENCH_SECONDS=20 npm run bench:webhooks
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:webhooks
 *   BENCH_MODE=drain npm run bench:webhooks      # dispatcher only: queue rate×seconds first, then deliver
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
import { loadConfig } from '../packages/server/src/config.ts';
import type { AppContext } from '../packages/server/src/context.ts';
import { MemoryHotState } from '../packages/server/src/state/memory.ts';
import { migrate, openDatabase } from '../packages/server/src/storage/db.ts';
import { WebhookDispatcher } from '../packages/server/src/webhooks/dispatcher.ts';
import { enqueueDecisionCreated } from '../packages/server/src/webhooks/outbox.ts';
import {
  configureWebhook,
  createSite,
  decisionRow,
  recordDecision,
} from '../packages/server/src/webhooks/test-fixtures.ts';

const rate = Number(process.env.BENCH_RATE ?? 2_500);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const databaseUrl = process.env.BENCH_DATABASE_URL;
const drainOnly = process.env.BENCH_MODE === 'drain';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-bench-webhooks-'));
  const lags: number[] = [];
  const received: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { createdAt: string } };
      lags.push(now - Date.parse(body.data.createdAt));
      received.push(now);
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;

  const config = loadConfig({
    WARDEN_UNSAFE_WEBHOOK_TARGETS: '1',
    WARDEN_LOG_LEVEL: 'silent',
    WARDEN_DATA_DIR: dataDir,
  });
  const database = openDatabase(
    databaseUrl ? { databaseUrl } : { sqlitePath: path.join(dataDir, 'warden.db') },
  );
  await migrate(database);
  const ctx: AppContext = {
    config,
    database,
    hotState: new MemoryHotState(),
    metrics: new Registry(),
    logger: pino({ level: 'silent' }),
    secret: 'bench',
    now: Date.now,
  };
  const site = await createSite(database, 'pro');
  await configureWebhook(database, site.siteId, url);
  const dispatcher = new WebhookDispatcher(ctx);
  const total = rate * seconds;
  if (drainOnly) {
    // Queue everything first (big transactions), then time the dispatcher alone.
    for (let i = 0; i < total; i += 500) {
      await database.db.transaction().execute(async (trx) => {
        for (let j = i; j < Math.min(total, i + 500); j++) {
          const decision = decisionRow(site);
          await trx.insertInto('decisions').values(decision).execute();
          await enqueueDecisionCreated(trx, decision);
        }
      });
    }
    console.log(`[bench:webhooks] drain mode: ${total} deliveries queued on ${database.dialect}`);
    const start = Date.now();
    dispatcher.start();
    while (received.length < total && Date.now() - start < 120_000)
      await new Promise((r) => setTimeout(r, 20));
    const elapsed = (Date.now() - start) / 1000;
    await dispatcher.stop();
    const summary = {
      mode: 'drain',
      delivered: received.length,
      seconds: elapsed,
      deliveredPerSecond: Math.round(received.length / elapsed),
      loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
    };
    console.log(JSON.stringify(summary, null, 2));
    server.closeAllConnections();
    server.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    return;
  }
  dispatcher.start();
  console.log(
    `[bench:webhooks] ${rate} decisions/s for ${seconds} s on ${database.dialect}, receiver ${url}`,
  );
  const tickMs = 10;
  const perTick = rate / (1000 / tickMs);
  const started = Date.now();
  let produced = 0;
  const progress = setInterval(() => {
    console.log(
      `[bench:webhooks] t=${((Date.now() - started) / 1000).toFixed(0)}s produced=${produced} delivered=${received.length}`,
    );
  }, 1_000);
  while (produced < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * rate) + perTick);
    const batch: Promise<void>[] = [];
    // At most a few ticks' worth at once: a producer that falls behind must not flood the loop.
    for (; produced < due && batch.length < perTick * 2; produced++)
      batch.push(recordDecision(database, decisionRow(site)));
    await Promise.all(batch);
    if (produced >= due) await new Promise((r) => setTimeout(r, tickMs));
    else await new Promise((r) => setImmediate(r));
  }
  const producedIn = (Date.now() - started) / 1000;
  const deadline = Date.now() + 60_000;
  while (received.length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  clearInterval(progress);
  await dispatcher.stop();

  const sorted = [...lags].sort((a, b) => a - b);
  const span = ((received.at(-1) ?? started) - (received[0] ?? started)) / 1000;
  const result = {
    dialect: database.dialect,
    decisions: total,
    delivered: received.length,
    producedPerSecond: Math.round(total / producedIn),
    deliveredPerSecond: Math.round(received.length / span),
    lagMs: {
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted.at(-1),
    },
    cpus: os.cpus().length,
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
  };
  console.log(JSON.stringify(result, null, 2));
  const pass = result.deliveredPerSecond >= 2_000 && result.lagMs.p99 <= 1_000 && received.length === total;
  console.log(`[bench:webhooks] target ≥2,000 deliveries/s and p99 lag ≤ 1 s: ${pass ? 'met' : 'NOT met'}`);
  server.closeAllConnections();
  server.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

await main();
