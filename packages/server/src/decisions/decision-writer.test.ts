import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../storage/db.ts';
import {
  type DialectName,
  openFileTestDatabase,
  openTestDatabase,
  testDialects,
} from '../testing/context.ts';
import { OutboxSignal } from '../webhooks/outbox.ts';
import { configureWebhook, createSite, decisionRow } from '../webhooks/test-fixtures.ts';
import { DecisionWriter } from './decision-writer.ts';

const databases: Array<DialectName | 'sqlite file (writer thread)'> = [
  ...testDialects(),
  'sqlite file (writer thread)',
];

describe.each(databases)('decision writer (group commit) on %s', (kind) => {
  let database: Database;
  beforeEach(async () => {
    database =
      kind === 'sqlite file (writer thread)' ? await openFileTestDatabase() : await openTestDatabase(kind);
  });
  afterEach(() => database.close());

  const count = async (table: 'decisions' | 'webhook_deliveries') =>
    (await database.db.selectFrom(table).select('site_id').execute()).length;

  it('commits without waiting for any timer, the writes of one turn in one batch it reports', async () => {
    const site = await createSite(database, 'pro');
    const batches: Array<{ size: number; wait: number; commit: number }> = [];
    const metrics = {
      commitBatch: (size: number, wait: number, commit: number) => batches.push({ size, wait, commit }),
      writerThread: () => undefined,
      writerStatement: () => undefined,
      checkpoint: () => undefined,
    };
    const writer = new DecisionWriter(database, new OutboxSignal(), undefined, metrics);
    await writer.ready();
    // Timers that never fire: a commit that waited for one would never be answered.
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    try {
      await Promise.all(Array.from({ length: 5 }, () => writer.write(decisionRow(site))));
      await writer.write(decisionRow(site));
      // One queued while a batch commits: it waits for that commit, not for a timer.
      const first = writer.write(decisionRow(site));
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all([first, writer.write(decisionRow(site))]);
    } finally {
      vi.useRealTimers();
    }
    expect(batches.map((b) => b.size)).toEqual([5, 1, 1, 1]);
    for (const b of batches) {
      expect(b.wait).toBeGreaterThanOrEqual(0);
      expect(b.commit).toBeGreaterThan(0);
    }
    expect(await count('decisions')).toBe(8);
  });

  it('answers a batch before it hands its webhook deliveries to the dispatcher', async () => {
    const site = await createSite(database, 'pro');
    await configureWebhook(database, site.siteId, 'https://hooks.example.com/w');
    const order: string[] = [];
    class Recording extends OutboxSignal {
      override committed(deliveries: Parameters<OutboxSignal['committed']>[0]): void {
        order.push(`handed over ${deliveries.length}`);
        super.committed(deliveries);
      }
    }
    const writer = new DecisionWriter(database, new Recording());
    const answered = Array.from({ length: 3 }, () =>
      writer.write(decisionRow(site)).then(() => order.push('answered')),
    );
    await Promise.all(answered);
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['answered', 'answered', 'answered', 'handed over 3']);
  });

  it('fails only the bad decision of a batch: the others are recorded, it leaves nothing behind', async () => {
    const site = await createSite(database, 'pro');
    await configureWebhook(database, site.siteId, 'https://hooks.example.com/w');
    const writer = new DecisionWriter(database, new OutboxSignal());
    const first = decisionRow(site);
    await writer.write(first);
    const batch = [decisionRow(site), { ...first }, decisionRow(site)];
    const results = await Promise.allSettled(batch.map((row) => writer.write(row)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await count('decisions')).toBe(3);
    expect(await count('webhook_deliveries')).toBe(3);
  });
});

describe('decision writer thread', () => {
  it('runs single statements on its connection for other writers (writes)', async () => {
    const database = await openFileTestDatabase();
    try {
      const writes = new DecisionWriter(database, new OutboxSignal()).writes;
      expect(writes).not.toBe(database.db);
      const site = await createSite(database, 'pro');
      const row = decisionRow(site);
      await new DecisionWriter(database, new OutboxSignal()).write(row);
      const updated = await writes
        .updateTable('decisions')
        .set({ label: 'fraud' })
        .where('id', '=', row.id)
        .executeTakeFirst();
      expect(updated.numUpdatedRows).toBe(1n);
      const returned = await writes
        .updateTable('decisions')
        .set({ labeled_at: 42 })
        .where('id', '=', row.id)
        .returning(['id', 'label'])
        .execute();
      expect(returned).toEqual([{ id: row.id, label: 'fraud' }]);
      expect(await writes.selectFrom('decisions').select('labeled_at').executeTakeFirst()).toEqual({
        labeled_at: 42,
      });
      await expect(writes.transaction().execute(async () => 1)).rejects.toThrow(/no transactions/);
    } finally {
      await database.close();
    }
  });

  /**
   * A writer whose thread is held, before any commit, by a statement waiting for another
   * connection's write lock: the batches sent meanwhile wait in the thread, behind it.
   */
  async function heldWriter(database: Database, other: SqliteDatabase.Database, siteId: string) {
    const groups: number[] = [];
    const metrics = {
      commitBatch: () => undefined,
      writerThread: (_queued: number, _transaction: number, batches: number) => groups.push(batches),
      writerStatement: () => undefined,
      checkpoint: () => undefined,
    };
    const writer = new DecisionWriter(database, new OutboxSignal(), undefined, metrics);
    await writer.ready();
    other.exec('begin immediate');
    const held = writer.writes.updateTable('sites').set({ name: 'held' }).where('id', '=', siteId).execute();
    const release = async () => {
      other.exec('commit');
      await held;
    };
    return { writer, groups, release };
  }
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it("sends each turn's decisions at once, and commits those that wait in the thread in one transaction", async () => {
    const database = await openFileTestDatabase();
    const other = new SqliteDatabase(database.sqliteFile!);
    try {
      const site = await createSite(database, 'pro');
      const { writer, groups, release } = await heldWriter(database, other, site.siteId);
      // One batch per turn, each sent at once (not held until the one before it is answered).
      const written: Array<Promise<boolean>> = [];
      for (let turn = 0; turn < 3; turn++) {
        written.push(writer.write(decisionRow(site)));
        await nextTurn();
      }
      await release();
      expect(await Promise.all(written)).toEqual([true, true, true]);
      // The three batches that waited, in one transaction.
      expect(groups).toEqual([3, 3, 3]);
      expect((await database.db.selectFrom('decisions').select('id').execute()).length).toBe(3);
    } finally {
      other.close();
      await database.close();
    }
  });

  it('fails only the bad batch of a transaction that took several: the others are recorded', async () => {
    const database = await openFileTestDatabase();
    const other = new SqliteDatabase(database.sqliteFile!);
    try {
      const site = await createSite(database, 'pro');
      await configureWebhook(database, site.siteId, 'https://hooks.example.com/w');
      const { writer, groups, release } = await heldWriter(database, other, site.siteId);
      const taken = decisionRow(site);
      const written: Array<Promise<boolean>> = [];
      for (const row of [taken, decisionRow(site), { ...taken }, decisionRow(site)]) {
        written.push(writer.write(row));
        await nextTurn();
      }
      await release();
      const results = await Promise.allSettled(written);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(groups).toEqual([4, 4, 4]);
      expect((await database.db.selectFrom('decisions').select('id').execute()).length).toBe(3);
      expect((await database.db.selectFrom('webhook_deliveries').select('id').execute()).length).toBe(3);
    } finally {
      other.close();
      await database.close();
    }
  });
});
