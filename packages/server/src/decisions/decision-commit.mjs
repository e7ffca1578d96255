// The SQLite transaction that records a group of decisions (decision-writer.ts explains the group
// commit). Plain JavaScript so that the writer thread (decision-writer.worker.mjs) can run it
// without a TypeScript loader; the in-memory database runs the very same function on the main
// thread. Statements arrive as SQL compiled by Kysely, each write with its parameters bound.

function webhookTurnedOn() {
  return Object.assign(new Error('a webhook was turned on after the batch was bound'), {
    code: 'WEBHOOK_TURNED_ON',
  });
}

/**
 * A function that records `writes` in one transaction and answers, per write, whether it was
 * recorded (false: its idempotency key was taken already, nothing written), and how many webhook
 * deliveries it queued. Throws `WEBHOOK_TURNED_ON`, having written nothing, when a write without
 * an outbox row meets a webhook that is on.
 */
export function decisionCommit(sqlite, sql) {
  const takeKey = sqlite.prepare(sql.takeKey);
  const insertDecision = sqlite.prepare(sql.insertDecision);
  const webhookActive = sqlite.prepare(sql.webhookActive);
  const insertDelivery = sqlite.prepare(sql.insertDelivery);
  const commit = sqlite.transaction((writes) => {
    const active = new Map();
    const recorded = [];
    let queued = 0;
    for (const write of writes) {
      if (write.key && takeKey.run(write.key).changes === 0) {
        recorded.push(false);
        continue;
      }
      insertDecision.run(write.decision);
      recorded.push(true);
      let on = active.get(write.siteId);
      if (on === undefined) {
        on = webhookActive.get(write.webhookActive) !== undefined;
        active.set(write.siteId, on);
      }
      if (on) {
        // Bound while the webhook was off: refuse the batch (rolled back) so that it is bound again.
        if (!write.delivery) throw webhookTurnedOn();
        insertDelivery.run(write.delivery);
        queued++;
      }
    }
    return { recorded, queued };
  });
  // IMMEDIATE takes the write lock at the start (waiting out the other connection's transaction)
  // instead of failing when a read would have to become a write.
  return (writes) => commit.immediate(writes);
}
