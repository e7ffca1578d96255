/**
 * `npm run fuzz -- [--count 40000] [--raw 4000] [--seed N]`: generated requests over every /api route
 * (fast-check over the routes' schemas, which the OpenAPI document is built from) and raw-socket
 * mutations against a real server on loopback. Prints progress, the answers by status, and every
 * failure (a 5xx, an error outside the envelope, a hang); exits 1 if there was one.
 */
import { parseArgs } from 'node:util';
import { startFuzzTarget } from './harness.ts';
import { runHttpFuzz } from './http-fuzz.ts';
import { runRawFuzz } from './raw-fuzz.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '40000' },
    raw: { type: 'string', default: '4000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_000) },
  },
});
const seed = Number(values.seed);
const count = Number(values.count);
const rawCount = Number(values.raw);
console.log(`[fuzz] seed ${seed}: ${count} requests, ${rawCount} raw-socket cases`);
const target = await startFuzzTarget();
console.log(`[fuzz] ${target.routes.length} routes at ${target.baseUrl}`);
const started = Date.now();
const report = await runHttpFuzz({
  ...target,
  seed,
  count,
  onProgress: ({ sent, failures }) => {
    if (sent % 5000 === 0 || sent === count)
      console.log(`[fuzz] ${sent}/${count} sent, ${failures.length} failures`);
  },
});
const rawProblems = await runRawFuzz({
  port: target.port,
  site: target.fixture.ws.site,
  seed,
  count: rawCount,
  concurrency: 20,
});
const health = await fetch(`${target.baseUrl}/healthz`)
  .then((r) => r.status)
  .catch(() => 0);
await target.close();
console.log(
  `[fuzz] ${report.sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s; by status:`,
  report.byStatus,
);
console.log(`[fuzz] raw-socket cases: ${rawCount}; /healthz after: ${health}`);
for (const f of report.failures.slice(0, 50))
  console.log('[fuzz] FAIL', f.problem, JSON.stringify(f.request).slice(0, 400));
for (const p of rawProblems.slice(0, 50)) console.log('[fuzz] RAW FAIL', p);
const failed = report.failures.length + rawProblems.length + (health === 200 ? 0 : 1);
console.log(failed === 0 ? '[fuzz] ok: 0 failures' : `[fuzz] ${failed} failures`);
process.exit(failed === 0 ? 0 : 1);
