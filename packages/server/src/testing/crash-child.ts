/**
 * Child process of crash.test.ts: a Warden context on a SQLite file with the webhook dispatcher
 * running, recording decisions (decision + outbox row in one transaction) until it is SIGKILLed.
 * argv: <mode: load|drain> <siteId> <workspaceId>. Prints "ready" once the dispatcher runs (load: and the
 * first decisions are recorded).
 */
import path from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
import { loadConfig } from '../config.ts';
import type { AppContext, Services } from '../context.ts';
import { openDecisionLog } from '../decisions/open-decision-log.ts';
import { dispatcherDeps } from '../services.ts';
import { MemoryHotState } from '../state/memory.ts';
import { migrate, openDatabase } from '../storage/db.ts';
import { WebhookDispatcher } from '../webhooks/dispatcher.ts';
import { OutboxSignal } from '../webhooks/outbox.ts';
import { decisionRow } from '../webhooks/test-fixtures.ts';

const [mode, siteId, workspaceId] = process.argv.slice(2);
if (!siteId || !workspaceId || (mode !== 'load' && mode !== 'drain')) {
  process.stderr.write('usage: crash-child.ts load|drain <siteId> <workspaceId>\n');
  process.exit(2);
}
const config = loadConfig(process.env);
// Only what the dispatcher needs (main.ts would load the whole HTTP app: slow to start).
const database = openDatabase({ sqlitePath: path.join(config.dataDir, 'warden.db') });
await migrate(database);
// Only the services the dispatcher and the writer use: services.ts would load the engine and the
// HTTP layer too (slow to start, and this child is killed and restarted many times).
const outbox = new OutboxSignal();
const decisions = openDecisionLog(database, outbox);
const ctx: AppContext = {
  config,
  database,
  hotState: new MemoryHotState(),
  metrics: new Registry(),
  logger: pino({ level: config.logLevel }),
  secret: 'crash-test-secret-not-used-for-webhooks',
  now: Date.now,
  services: { outbox, decisions } as Pick<Services, 'outbox' | 'decisions'> as Services,
};
const dispatcher = new WebhookDispatcher(dispatcherDeps(ctx), {
  pollIntervalMs: 20,
  timeoutMs: 1_000,
  leaseMs: 1_500,
});
dispatcher.start();
if (mode === 'drain') process.stdout.write('ready\n');

if (mode === 'load') {
  const site = { siteId, workspaceId };
  // "ready" once the first burst is committed: on a busy machine the writer thread may take a while
  // to start, and the test's random kill window must fall on a process that is already recording.
  let announced = false;
  for (;;) {
    // Small bursts of concurrent transactions: a kill lands mid-write as often as mid-send.
    await Promise.all(Array.from({ length: 5 }, () => ctx.services.decisions.record(decisionRow(site))));
    if (!announced) {
      announced = true;
      process.stdout.write('ready\n');
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}
