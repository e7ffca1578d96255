/**
 * A runnable Warden webhook receiver on node:http with the durable SQLite store.
 *
 *   WARDEN_WEBHOOK_SECRET=whsec_… PORT=4000 node --conditions warden-source --import tsx examples/receiver/server.ts
 *
 * Then point the site's webhook at it (for local testing the server needs
 * WARDEN_UNSAFE_WEBHOOK_TARGETS=1 to allow http://127.0.0.1:4000/webhooks/warden).
 */
import http from 'node:http';
import { createWebhookReceiver, type DecisionCreatedEvent, nodeHttpHandler } from '@warden/node';
import { SqliteWebhookStore } from '@warden/node/receiver-sqlite';

const secret = process.env.WARDEN_WEBHOOK_SECRET;
if (!secret) {
  process.stderr.write('Set WARDEN_WEBHOOK_SECRET to the signing secret shown by GET /api/webhooks.\n');
  process.exit(2);
}
const port = Number(process.env.PORT ?? 4000);
const store = new SqliteWebhookStore(process.env.RECEIVER_DB ?? './warden-webhooks.db');

/** The business effect: runs after acceptance, retried on failure, once per decision. */
async function onDecision(event: DecisionCreatedEvent): Promise<void> {
  const { data } = event;
  const action = data.metadata?.action ?? 'unknown';
  // A webhook alone never approves payment or fulfilment: flag, hold or notify only.
  if (action === 'block' || action === 'review') {
    process.stdout.write(
      `hold account ${data.accountId}: ${data.type} scored ${data.riskScore} (${action})\n`,
    );
  }
}

const receiver = createWebhookReceiver({
  secret,
  store,
  process: onDecision,
  onError: (error, where) => process.stderr.write(`[receiver] ${where.stage} failed: ${String(error)}\n`),
});
receiver.start();

const handle = nodeHttpHandler(receiver);
const server = http.createServer((req, res) => {
  if (req.url === '/webhooks/warden') return handle(req, res);
  res.writeHead(404).end();
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`receiver on http://127.0.0.1:${port}/webhooks/warden\n`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    void receiver.stop().then(() => store.close());
  });
}
