import { openDecisionLog } from '../packages/server/src/decisions/open-decision-log.ts';
import type { Database } from '../packages/server/src/storage/db.ts';
import { openDatabase } from '../packages/server/src/storage/db.ts';
import { OutboxSignal } from '../packages/server/src/webhooks/outbox.ts';
import { decisionRow, type SiteFixture } from '../packages/server/src/webhooks/test-fixtures.ts';

/**
 * The benchmark's decision producer: records decisions with their outbox rows, one transaction
 * each, at `rate` per second, with up to `inFlightMax` transactions at once (PostgreSQL: 32, as
 * concurrent API requests commit in parallel; SQLite: 1, its one connection serialises them
 * anyway). `produce()` runs in the delivering process (embedded SQLite: one process records and
 * delivers); run as a child process (PostgreSQL: API processes and a delivery worker) it waits for
 * a `start` message.
 */
export async function produce(
  database: Database,
  site: SiteFixture,
  rate: number,
  total: number,
  inFlightMax = database.dialect === 'postgres' ? 32 : 1,
): Promise<{ produced: number; seconds: number }> {
  const tickMs = 10;
  const perTick = rate / (1000 / tickMs);
  const started = Date.now();
  let produced = 0;
  const inFlight = new Set<Promise<boolean>>();
  const decisions = openDecisionLog(database, new OutboxSignal());
  while (produced < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * rate) + perTick);
    for (; produced < due && inFlight.size < inFlightMax; produced++) {
      const p: Promise<boolean> = decisions.record(decisionRow(site)).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    if (inFlight.size >= inFlightMax) await Promise.race(inFlight);
    else if (produced >= due) await new Promise((r) => setTimeout(r, tickMs));
    else await new Promise((r) => setImmediate(r));
  }
  await Promise.all(inFlight);
  return { produced, seconds: (Date.now() - started) / 1000 };
}

interface Start {
  type: 'start';
  site: SiteFixture;
  rate: number;
  total: number;
  where: { sqlitePath: string } | { databaseUrl: string; pgSchema: string };
}

if (process.send) {
  process.once('message', async (m: Start) => {
    const database = openDatabase(m.where);
    const result = await produce(database, m.site, m.rate, m.total);
    process.send?.({ type: 'done', ...result });
    await database.close();
    process.exit(0);
  });
  process.send({ type: 'ready' });
}
