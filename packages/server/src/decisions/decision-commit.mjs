// The SQLite transaction that records a group of decisions (decision-writer.ts explains the group
// commit). Plain JavaScript so that the writer thread (decision-writer.worker.mjs) can run it
// without a TypeScript loader; the in-memory database runs the very same function on the main
// thread. Statements arrive as SQL compiled by Kysely, each write with its parameters bound.

function webhookTurnedOn() {
  return Object.assign(new Error('a webhook was turned on after the batch was bound'), {
    code: 'WEBHOOK_TURNED_ON',
  });
}

/** The statements of a commit, prepared on `sqlite`, and how one batch's writes are recorded with them. */
function recorder(sqlite, sql) {
  const takeKey = sqlite.prepare(sql.takeKey);
  const insertDecision = sqlite.prepare(sql.insertDecision);
  const webhookActive = sqlite.prepare(sql.webhookActive);
  const insertDelivery = sqlite.prepare(sql.insertDelivery);
  /** `active`: per site, whether its webhook is on (looked up once per transaction). */
  return (writes, active) => {
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
  };
}

/**
 * A function that records `writes` in one transaction and answers, per write, whether it was
 * recorded (false: its idempotency key was taken already, nothing written), and how many webhook
 * deliveries it queued. Throws `WEBHOOK_TURNED_ON`, having written nothing, when a write without
 * an outbox row meets a webhook that is on.
 */
export function decisionCommit(sqlite, sql) {
  const record = recorder(sqlite, sql);
  const commit = sqlite.transaction((writes) => record(writes, new Map()));
  // IMMEDIATE takes the write lock at the start (waiting out the other connection's transaction)
  // instead of failing when a read would have to become a write.
  return (writes) => commit.immediate(writes);
}

/** What a batch of a group commit is answered: its result, or why it failed (nothing of it written). */
function failure(err) {
  return {
    error: err instanceof Error ? err.message : String(err),
    code: typeof err?.code === 'string' ? err.code : undefined,
  };
}

/**
 * A function that records several batches (each as `decisionCommit` would: the batches that
 * reached the writer thread while its last transaction ran) in one transaction, answering each
 * batch its own result; should that transaction fail, each batch is committed on its own, so that
 * a failing batch fails only itself (its answer then carries `error` and `code`).
 */
export function groupCommit(sqlite, sql) {
  const record = recorder(sqlite, sql);
  const one = sqlite.transaction((writes) => record(writes, new Map()));
  const all = sqlite.transaction((batches) => {
    const active = new Map();
    return batches.map((writes) => record(writes, active));
  });
  const alone = (writes) => {
    try {
      return one.immediate(writes);
    } catch (err) {
      return failure(err);
    }
  };
  return (batches) => {
    if (batches.length === 1) return [alone(batches[0])];
    try {
      return all.immediate(batches);
    } catch {
      return batches.map(alone);
    }
  };
}
