import { loadConfig } from '../packages/server/src/config.ts';
import { buildApp } from '../packages/server/src/http/app.ts';
import { closeContext, createContext } from '../packages/server/src/main.ts';
import { createSite } from '../packages/server/src/workspace/sites.ts';
import { createWorkspace } from '../packages/server/src/workspace/workspaces.ts';
import { createBenchRules } from './bench-rules.ts';

/**
 * The benchmarked Warden: the real app on an embedded SQLite database in WARDEN_DATA_DIR, one seeded
 * Pro site (with WARDEN_BENCH_RULES custom rules), the server rate limit raised by the parent
 * through WARDEN_RATE_SERVER_PER_SECOND.
 * Reports peak RSS and the recorded decision_ms distribution over IPC.
 */
const config = loadConfig({ ...process.env, WARDEN_LOG_LEVEL: 'warn', WARDEN_SEED_DEMO: '0' });
const ctx = await createContext(config);
const now = Date.now();
const workspace = await createWorkspace(ctx.database.db, { name: 'Bench', plan: 'pro' }, now);
const { site, keys } = await createSite(
  ctx.database.db,
  { workspaceId: workspace.id, name: 'Bench site', allowedOrigins: ['https://shop.example'] },
  now,
);
await createBenchRules(ctx, site.id, Number(process.env.WARDEN_BENCH_RULES ?? 0));
const app = await buildApp(ctx);
const address = await app.listen({ host: '127.0.0.1', port: 0 });

let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 50);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

process.send?.({
  type: 'ready',
  port: new URL(address).port,
  siteKey: keys.siteKey,
  secretKey: keys.secretKey,
});
let mark = process.cpuUsage();
process.on('message', async (message: { type: string; since?: number }) => {
  if (message.type === 'mark') {
    mark = process.cpuUsage();
    process.send?.({ type: 'marked' });
  } else if (message.type === 'stats') {
    const cpu = process.cpuUsage(mark);
    const rows = await ctx.database.db
      .selectFrom('decisions')
      .select('decision_ms')
      .where('created_at', '>=', message.since ?? 0)
      .execute();
    const ms = rows.map((r) => Number(r.decision_ms)).sort((a, b) => a - b);
    process.send?.({
      type: 'stats',
      cpuMs: (cpu.user + cpu.system) / 1000,
      peakRss,
      decisions: ms.length,
      decisionMs: { p50: percentile(ms, 50), p99: percentile(ms, 99), p999: percentile(ms, 99.9) },
    });
  } else if (message.type === 'stop') {
    clearInterval(sampler);
    await app.close();
    await closeContext(ctx);
    process.exit(0);
  }
});
