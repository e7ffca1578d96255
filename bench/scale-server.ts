import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../packages/server/src/config.ts';
import { buildApp } from '../packages/server/src/http/app.ts';
import { closeContext, createContext } from '../packages/server/src/main.ts';
import { dispatcherDeps } from '../packages/server/src/services.ts';
import { WebhookDispatcher } from '../packages/server/src/webhooks/dispatcher.ts';
import { newWebhookSecret } from '../packages/server/src/webhooks/signer.ts';
import { createSite } from '../packages/server/src/workspace/sites.ts';
import { createWorkspace } from '../packages/server/src/workspace/workspaces.ts';

/**
 * The Warden of bench/scale.ts: the real app as `warden serve` builds it (storage and hot state
 * from WARDEN_* variables: SQLite file, or PostgreSQL + Redis), one Pro site, and, when
 * BENCH_WEBHOOK_URL is set, that site's webhook with the delivery worker running. Reports over IPC
 * the CPU time of the process (every thread) and the main thread's event-loop delay since 'mark'.
 */
const config = loadConfig({ ...process.env, WARDEN_LOG_LEVEL: 'warn', WARDEN_SEED_DEMO: '0' });
const ctx = await createContext(config);

/**
 * The main thread's synchronous SQLite calls (statements prepared from now on), timed: a call that
 * waits for the write lock (busy_timeout) holds the event loop for as long as it waits.
 */
const sqliteCalls = { count: 0, over10ms: 0, maxMs: 0, totalMs: 0 };
const sqlite = ctx.database.sqlite;
if (sqlite) {
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    const statement = prepare(source);
    for (const method of ['run', 'all', 'get'] as const) {
      const call = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        const started = performance.now();
        try {
          return call(...args);
        } finally {
          const ms = performance.now() - started;
          sqliteCalls.count++;
          sqliteCalls.totalMs += ms;
          if (ms > 10) sqliteCalls.over10ms++;
          if (ms > sqliteCalls.maxMs) sqliteCalls.maxMs = ms;
        }
      };
    }
    return statement;
  }) as typeof sqlite.prepare;
}
const now = Date.now();
const workspace = await createWorkspace(ctx.database.db, { name: 'Scale bench', plan: 'pro' }, now);
const { site, keys } = await createSite(
  ctx.database.db,
  { workspaceId: workspace.id, name: 'Bench', allowedOrigins: ['https://shop.example'] },
  now,
);
const webhookUrl = process.env.BENCH_WEBHOOK_URL;
let dispatcher: WebhookDispatcher | undefined;
if (webhookUrl) {
  await ctx.database.db
    .insertInto('webhooks')
    .values({
      site_id: site.id,
      url: webhookUrl,
      enabled: 1,
      secret: newWebhookSecret(),
      created_at: now,
      updated_at: now,
    })
    .execute();
  dispatcher = new WebhookDispatcher(dispatcherDeps(ctx));
  dispatcher.start();
}
const app = await buildApp(ctx);
const address = await app.listen({ host: '127.0.0.1', port: 0 });

const delay = monitorEventLoopDelay({ resolution: 1 });
let cpuMark = process.cpuUsage();
let decisionsMark = 0;
const decisions = async () =>
  Number(
    (
      await ctx.database.db
        .selectFrom('decisions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

process.send?.({
  type: 'ready',
  port: new URL(address).port,
  siteKey: keys.siteKey,
  secretKey: keys.secretKey,
});
process.on('message', async (message: { type: string }) => {
  if (message.type === 'mark') {
    decisionsMark = await decisions();
    cpuMark = process.cpuUsage();
    delay.reset();
    delay.enable();
    Object.assign(sqliteCalls, { count: 0, over10ms: 0, maxMs: 0, totalMs: 0 });
    process.send?.({ type: 'marked' });
  } else if (message.type === 'stats') {
    const cpu = process.cpuUsage(cpuMark);
    delay.disable();
    const delivered = webhookUrl
      ? Number(
          (
            await ctx.database.db
              .selectFrom('webhook_deliveries')
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .where('status', '=', 'succeeded')
              .executeTakeFirstOrThrow()
          ).n,
        )
      : 0;
    process.send?.({
      type: 'stats',
      cpuUs: cpu.user + cpu.system,
      decisions: (await decisions()) - decisionsMark,
      delivered,
      mainThreadSqlite: sqliteCalls,
      loopDelayMs: {
        p50: delay.percentile(50) / 1e6,
        p99: delay.percentile(99) / 1e6,
        max: delay.max / 1e6,
      },
    });
  } else if (message.type === 'stop') {
    await app.close();
    await dispatcher?.stop();
    await closeContext(ctx);
    process.exit(0);
  }
});
