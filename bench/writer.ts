/**
 * `node --import tsx bench/writer.ts`: the decision writer alone (group commit through the writer
 * thread into an SQLite file), CPU per decision of the main thread and of the writer thread, with
 * rows shaped like the bench's (a new account, IP, e-mail, device per row; ~4.5 KB of JSON) and a
 * webhook on, so that every decision also writes its outbox row. Prints one line per block of rows,
 * so that the cost can be followed as the table grows.
 * Options: --rows <n> (default 60000), --batch <n> decisions per event-loop turn (default 16),
 * --deliver: also run the webhook dispatcher's writes on the writer thread as a delivery that
 * succeeds at once makes them: after each group commit, claim the due deliveries, and record the
 * previous claim's as succeeded (webhooks/delivery-store.ts); --packed: rows packed as the server
 * packs them (the bodies of 200 context-only decisions a real engine scored, bench/lib/verify-bodies.ts
 * bareBody), so that the writer thread seals each (deflates its body and evidence) before its insert.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { loadConfig } from '../packages/server/src/config.ts';
import { timeOrderedId } from '../packages/server/src/decisions/decision-id.ts';
import { DecisionWriter } from '../packages/server/src/decisions/decision-writer.ts';
import { packDecision } from '../packages/server/src/decisions/packed-row.ts';
import { openConfiguredDatabase } from '../packages/server/src/main.ts';
import { migrate } from '../packages/server/src/storage/db.ts';
import { claimDueDeliveries, completeSuccesses } from '../packages/server/src/webhooks/delivery-store.ts';
import { OutboxSignal } from '../packages/server/src/webhooks/outbox.ts';
import { configureWebhook, createSite, decisionRow } from '../packages/server/src/webhooks/test-fixtures.ts';
import { arg } from './lib/args.ts';
import { cpuSince, readProcessTicks } from './lib/proc-stat.ts';
import { scoredDecisions, scoringContext } from './lib/scored-decisions.ts';
import { bareBody } from './lib/verify-bodies.ts';

const ROWS = Number(arg('rows') ?? 60_000);
const BATCH = Number(arg('batch') ?? 16);
const DELIVER = process.argv.includes('--deliver');
const PACKED = process.argv.includes('--packed');
const BLOCK = 10_000;

const features = JSON.stringify({ blob: 'f'.repeat(2700) });
const evidence = JSON.stringify({ blob: 'e'.repeat(1300) });

/** With --packed: the packed columns of real decisions (pending: the writer seals them), cycled. */
async function packedSamples(): Promise<Array<ReturnType<typeof packDecision>>> {
  if (!PACKED) return [];
  const scoring = await scoringContext();
  try {
    const scored = await scoredDecisions(scoring, bareBody, 200);
    return scored.map(({ columns, parts }) => packDecision(columns, parts));
  } finally {
    await scoring.close();
  }
}

async function main(): Promise<void> {
  const packed = await packedSamples();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-writer-bench-'));
  const database = openConfiguredDatabase(loadConfig({ WARDEN_DATA_DIR: dataDir }));
  try {
    await migrate(database);
    const site = await createSite(database, 'pro');
    await configureWebhook(database, site.siteId, 'https://hooks.example.com/w');
    const writer = new DecisionWriter(database, new OutboxSignal());
    await writer.ready();
    let inFlight: string[] = [];
    let before = readProcessTicks(process.pid);
    let commits = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000 });
    let started = Date.now();
    for (let n = 0; n < ROWS; n += BATCH) {
      const rows = Array.from({ length: BATCH }, (_, i) => {
        const k = n + i;
        const hex = randomBytes(8).toString('hex');
        return decisionRow(site, {
          id: timeOrderedId(Date.now()),
          account_id: `acct-${hex}`,
          email: `u${hex}@example.com`,
          ip_address: `10.${k & 255}.${(k >> 8) & 255}.${(k >> 16) & 255}`,
          device_id: `dev_${hex}`,
          cluster_id: `cl_${hex}`,
          features,
          evidence,
          ...(packed.length > 0 ? (packed[k % packed.length] as object) : {}),
        });
      });
      const sent = performance.now();
      await Promise.all(rows.map((row) => writer.write(row)));
      commits.recordValue(Math.round((performance.now() - sent) * 1000));
      if (DELIVER) {
        const now = Date.now();
        await completeSuccesses(writer.writes, 'bench', inFlight, 200, '', now);
        const claimed = await claimDueDeliveries(writer.writes, 'sqlite', 'bench', 2 * BATCH, now, 30_000);
        inFlight = claimed.map((r) => r.id);
      }
      if ((n + BATCH) % BLOCK === 0) {
        const after = readProcessTicks(process.pid);
        const cpu = cpuSince(before, after);
        console.log(
          `rows ${String(n + BATCH).padStart(7)}: CPU µs per decision main ${(cpu.main / BLOCK).toFixed(0)}, ` +
            `writer ${(cpu.writer / BLOCK).toFixed(0)}, others ${(cpu.others / BLOCK).toFixed(0)}; ` +
            `${((BLOCK * 1000) / (Date.now() - started)).toFixed(0)} decisions/s; ` +
            `commit ms p50 ${at(commits, 50)}, p99 ${at(commits, 99)}, p99.9 ${at(commits, 99.9)}, max ${(commits.maxValue / 1000).toFixed(1)}`,
        );
        commits.destroy();
        commits = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000 });
        before = after;
        started = Date.now();
      }
    }
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A percentile of a histogram of µs, in ms. */
function at(histogram: hdr.Histogram, p: number): string {
  return (histogram.getValueAtPercentile(p) / 1000).toFixed(1);
}

await main();
