import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../storage/db.ts';
import {
  type DialectName,
  openFileTestDatabase,
  openTestDatabase,
  TEST_DATABASE_URL,
  testDialects,
} from '../testing/context.ts';
import { OutboxSignal } from '../webhooks/outbox.ts';
import { configureWebhook, createSite, decisionRow } from '../webhooks/test-fixtures.ts';
import { DecisionWriter } from './decision-writer.ts';
import { IDEMPOTENCY_RETENTION_MS } from './key-queries.ts';
import { packDecision, unpackDecision } from './packed-row.ts';
import { WriterThread } from './writer-thread.ts';

const databases: Array<DialectName | 'sqlite file (writer thread)'> = [
  ...testDialects(),
  'sqlite file (writer thread)',
];

describe.each(databases)('group commit on %s', (kind) => {
  let database: Database;
  beforeEach(async () => {
    database =
      kind === 'sqlite file (writer thread)' ? await openFileTestDatabase() : await openTestDatabase(kind);
  });
  afterEach(() => database.close());

  const count = async (table: 'decisions' | 'webhook_deliveries') =>
    (await database.db.selectFrom(table).select('site_id').execute()).length;

  it('records decisions written together, each with its outbox row only where the webhook is on', async () => {
    const hooked = await createSite(database, 'pro');
    const quiet = await createSite(database, 'pro');
    await configureWebhook(database, hooked.siteId, 'https://hooks.example.com/w');
    const writer = new DecisionWriter(database, new OutboxSignal());
    const rows = Array.from({ length: 60 }, (_, i) => decisionRow(i % 3 === 0 ? quiet : hooked));
    await Promise.all(rows.map((row) => writer.write(row)));
    expect(await count('decisions')).toBe(60);
    expect(await count('webhook_deliveries')).toBe(40);
    const stored = await database.db
      .selectFrom('decisions')
      .selectAll()
      .where('id', '=', rows[1]!.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      ...rows[1],
      cluster_id: null,
      rule_input: null,
      browser_decision_id: null,
      packed: null,
      packed_evidence: null,
    });
  });

  it('seals a pending packed decision where it commits (on the writer thread for a file): stored packed, read back as recorded', async () => {
    const site = await createSite(database, 'pro');
    const writer = new DecisionWriter(database, new OutboxSignal());
    await writer.ready();
    const row = decisionRow(site, { user_agent: 'Agent/1', account_id: 'acct_sealed' });
    const signals = [{ rule: 'datacenter_ip', score: 20, description: 'A hosting network.' }];
    const parts = {
      features: { user_agent: 'Agent/1', ip: { country: 'DE' }, device_id: row.device_id },
      evidence: { device: { id: row.device_id }, fingerprint: { canvas: 'c1' } },
      ruleInput: { v: 1, event: { account_id: 'acct_sealed' } },
      answer: { pending: true },
    };
    const pending = { ...row, signals: JSON.stringify(signals) };
    const deflate = vi.spyOn(zlib, 'deflateRawSync');
    try {
      expect(await writer.write({ ...pending, ...packDecision(pending, parts) })).toBe(true);
      // The request thread left the deflate to the commit: on the writer thread, none here.
      expect(deflate.mock.calls.length).toBe(kind === 'sqlite file (writer thread)' ? 0 : 2);
    } finally {
      deflate.mockRestore();
    }
    const stored = await database.db
      .selectFrom('decisions')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored.packed?.[0]).toBe(4);
    expect(stored).toMatchObject({ user_agent: '', workspace_id: '' });
    expect(JSON.parse(stored.signals)).toEqual([{ rule: 'datacenter_ip', score: 20 }]);
    expect(unpackDecision(stored)).toEqual({
      features: JSON.stringify(parts.features),
      evidence: JSON.stringify(parts.evidence),
      response: JSON.stringify(parts.answer),
      rule_input: JSON.stringify(parts.ruleInput),
      signals: JSON.stringify(signals),
      user_agent: 'Agent/1',
    });
  });

  it('records a decision only with a free idempotency key: a second one for the key writes nothing', async () => {
    const site = await createSite(database, 'pro');
    await configureWebhook(database, site.siteId, 'https://hooks.example.com/w');
    const writer = new DecisionWriter(database, new OutboxSignal());
    const now = Date.now();
    const keyFor = (decisionId: string, createdAt = now) => ({
      site_id: site.siteId,
      route: 'verify',
      key: 'k-1',
      body_hash: 'h',
      decision_id: decisionId,
      created_at: createdAt,
    });
    const [a, b, c, d] = [decisionRow(site), decisionRow(site), decisionRow(site), decisionRow(site)];
    expect(await writer.write(a, keyFor(a.id))).toBe(true);
    // Later, and within one batch: both refused, nothing of theirs written.
    expect(await Promise.all([writer.write(b, keyFor(b.id)), writer.write(c, keyFor(c.id))])).toEqual([
      false,
      false,
    ]);
    expect(await count('decisions')).toBe(1);
    expect(await count('webhook_deliveries')).toBe(1);
    // Past the 24 h retention the key is free again.
    expect(await writer.write(d, keyFor(d.id, now + IDEMPOTENCY_RETENTION_MS + 1))).toBe(true);
    const key = await database.db.selectFrom('idempotency_keys').selectAll().executeTakeFirstOrThrow();
    expect(key.decision_id).toBe(d.id);
  });

  it('waits for a Kysely transaction in progress instead of joining it (its rollback keeps the decision)', async () => {
    const site = await createSite(database, 'pro');
    const writer = new DecisionWriter(database, new OutboxSignal());
    let release = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    // A slow transaction elsewhere: the writer waits for it instead of joining it.
    const other = database.db.transaction().execute(async (trx) => {
      await trx.updateTable('sites').set({ name: 'renamed' }).where('id', '=', site.siteId).execute();
      await released;
      throw new Error('rolled back on purpose');
    });
    const write = writer.write(decisionRow(site));
    await new Promise((r) => setTimeout(r, 20));
    release();
    await expect(other).rejects.toThrow('rolled back on purpose');
    await write;
    expect(await count('decisions')).toBe(1);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('group commit on postgres: statements per batch', () => {
  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase('postgres');
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await database.close();
  });

  /** The SQL sent to PostgreSQL while `run` runs, first words only. */
  const statementsOf = async (run: () => Promise<unknown>): Promise<string[]> => {
    const sent: string[] = [];
    const query = pg.Client.prototype.query;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
      if (text) sent.push(text.split(' (')[0]!.split(' where')[0]!.trim());
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as never);
    await run();
    vi.restoreAllMocks();
    return sent;
  };

  it('commits a batch in one transaction of one statement per table, whatever its size and sites', async () => {
    const hooked = await createSite(database, 'pro');
    const quiet = await createSite(database, 'pro');
    await configureWebhook(database, hooked.siteId, 'https://hooks.example.com/w');
    const writer = new DecisionWriter(database, new OutboxSignal());
    await writer.write(decisionRow(quiet)); // compiles nothing lazily inside the measured batch
    const now = Date.now();
    const rows = Array.from({ length: 30 }, (_, i) => decisionRow(i % 3 === 0 ? quiet : hooked));
    const keyOf = (row: (typeof rows)[number], i: number) => ({
      site_id: row.site_id,
      route: 'verify',
      key: `k-${i}`,
      body_hash: 'h',
      decision_id: row.id,
      created_at: now,
    });
    const sent = await statementsOf(() =>
      Promise.all(rows.map((row, i) => (i % 2 === 0 ? writer.write(row, keyOf(row, i)) : writer.write(row)))),
    );
    expect(sent).toEqual([
      'begin',
      'insert into "idempotency_keys"',
      'insert into "decisions"',
      'select "webhooks"."site_id" from "webhooks" inner join "sites" on "sites"."id" = "webhooks"."site_id" inner join "workspaces" on "workspaces"."id" = "sites"."workspace_id"',
      'insert into "webhook_deliveries"',
      'commit',
    ]);
    expect((await database.db.selectFrom('decisions').select('id').execute()).length).toBe(31);
    expect((await database.db.selectFrom('webhook_deliveries').select('id').execute()).length).toBe(20);
    expect((await database.db.selectFrom('idempotency_keys').select('key').execute()).length).toBe(15);
  });

  it('takes keys that two decisions of a batch share one by one, as before', async () => {
    const site = await createSite(database, 'pro');
    const writer = new DecisionWriter(database, new OutboxSignal());
    const [a, b] = [decisionRow(site), decisionRow(site)];
    const key = (decisionId: string) => ({
      site_id: site.siteId,
      route: 'verify',
      key: 'same',
      body_hash: 'h',
      decision_id: decisionId,
      created_at: Date.now(),
    });
    const sent = await statementsOf(() =>
      Promise.all([writer.write(a, key(a.id)), writer.write(b, key(b.id))]),
    );
    expect(sent.filter((s) => s === 'insert into "idempotency_keys"')).toHaveLength(2);
  });
});

describe('group commit in the writer thread', () => {
  it('commits on its own connection: the main connection writes nothing', async () => {
    const database = await openFileTestDatabase();
    try {
      const site = await createSite(database, 'pro');
      await configureWebhook(database, site.siteId, 'https://hooks.example.com/w');
      const mainChanges = () =>
        (database.sqlite!.prepare('select total_changes() as n').get() as { n: number }).n;
      const before = mainChanges();
      const writer = new DecisionWriter(database, new OutboxSignal());
      await Promise.all(Array.from({ length: 10 }, () => writer.write(decisionRow(site))));
      expect(mainChanges()).toBe(before);
      // Committed before write() resolved: this thread's connection reads them at once.
      const count = await database.db.selectFrom('webhook_deliveries').select('id').execute();
      expect(count).toHaveLength(10);
    } finally {
      await database.close();
    }
  });

  it('lets a Kysely transaction that read first still write while the thread commits (BEGIN IMMEDIATE)', async () => {
    const database = await openFileTestDatabase();
    try {
      const site = await createSite(database, 'pro');
      const writer = new DecisionWriter(database, new OutboxSignal());
      let written: Promise<boolean> | undefined;
      await database.db.transaction().execute(async (trx) => {
        await trx.selectFrom('sites').select('id').execute();
        // The thread commits meanwhile (or waits for this transaction, which holds the write lock).
        written = writer.write(decisionRow(site));
        await new Promise((r) => setTimeout(r, 50));
        await trx.updateTable('sites').set({ name: 'renamed' }).where('id', '=', site.siteId).execute();
      });
      expect(await written).toBe(true);
      const row = await database.db.selectFrom('sites').select('name').executeTakeFirstOrThrow();
      expect(row.name).toBe('renamed');
    } finally {
      await database.close();
    }
  });

  it("reads a site's webhook state on the main connection once, not per batch, and still commits a change of it right", async () => {
    const database = await openFileTestDatabase();
    try {
      const site = await createSite(database, 'pro');
      await configureWebhook(database, site.siteId, 'https://hooks.example.com/w', false);
      // Count the reads of the webhook's state on the main connection (the binding's).
      const sqlite = database.sqlite!;
      const prepare = sqlite.prepare.bind(sqlite);
      let reads = 0;
      vi.spyOn(sqlite, 'prepare').mockImplementation(((source: string) => {
        const statement = prepare(source);
        if (!source.includes('"webhooks"')) return statement;
        const get = statement.get.bind(statement);
        return Object.assign(statement, {
          get: (...args: unknown[]) => {
            reads++;
            return get(...(args as []));
          },
        });
      }) as never);
      const writer = new DecisionWriter(database, new OutboxSignal());
      for (let i = 0; i < 5; i++) expect(await writer.write(decisionRow(site))).toBe(true);
      expect(reads).toBe(1);
      // Turned on: remembered off, the commit refuses the batch, bound again with its delivery.
      await database.db
        .updateTable('webhooks')
        .set({ enabled: 1 })
        .where('site_id', '=', site.siteId)
        .execute();
      expect(await writer.write(decisionRow(site))).toBe(true);
      expect(await writer.write(decisionRow(site))).toBe(true);
      expect(reads).toBe(2);
      expect(await database.db.selectFrom('webhook_deliveries').select('id').execute()).toHaveLength(2);
      // Turned off: remembered on, the delivery bound is not written.
      await database.db
        .updateTable('webhooks')
        .set({ enabled: 0 })
        .where('site_id', '=', site.siteId)
        .execute();
      expect(await writer.write(decisionRow(site))).toBe(true);
      expect(await database.db.selectFrom('webhook_deliveries').select('id').execute()).toHaveLength(2);
      expect(await database.db.selectFrom('decisions').select('id').execute()).toHaveLength(8);
    } finally {
      vi.restoreAllMocks();
      await database.close();
    }
  });

  it('records the delivery of a webhook turned on between binding a batch and committing it', async () => {
    const database = await openFileTestDatabase();
    const other = new SqliteDatabase(database.sqliteFile!);
    try {
      const site = await createSite(database, 'pro');
      await configureWebhook(database, site.siteId, 'https://hooks.example.com/w', false);
      // Another connection holds the write lock: the batch is bound (webhook off), then waits.
      other.exec('begin immediate');
      const written = new DecisionWriter(database, new OutboxSignal()).write(decisionRow(site));
      await new Promise((r) => setTimeout(r, 50));
      other.prepare('update webhooks set enabled = 1 where site_id = ?').run(site.siteId);
      other.exec('commit');
      expect(await written).toBe(true);
      const deliveries = await database.db.selectFrom('webhook_deliveries').select('id').execute();
      expect(deliveries).toHaveLength(1);
    } finally {
      other.close();
      await database.close();
    }
  });

  it('hands its commits and statements to the fallback when the thread cannot open the file', async () => {
    const blocker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'warden-writer-')), 'a-file');
    fs.writeFileSync(blocker, '');
    const fallenBack: unknown[] = [];
    const thread = new WriterThread(
      path.join(blocker, 'warden.db'),
      { takeKey: '', insertDecision: '', webhookActive: '', insertDelivery: '' },
      {
        slots: { packed: 0, packed_evidence: 1, signals: 2, user_agent: 3, workspace_id: 4 },
        dictionary: '',
      },
      {
        commit: async (writes) => {
          fallenBack.push(...writes);
          return { recorded: writes.map(() => true), queued: 0 };
        },
        run: async (sql, parameters) => {
          fallenBack.push(sql);
          return { rows: [{ parameters }] };
        },
      },
    );
    const write = { key: null, decision: [], siteId: 's', webhookActive: [], delivery: [] };
    expect(await thread.commit([write])).toEqual({ recorded: [true], queued: 0 });
    expect(await thread.commit([write, write])).toEqual({ recorded: [true, true], queued: 0 });
    expect(await thread.run('select ?', [1])).toEqual({ rows: [{ parameters: [1] }] });
    expect(fallenBack).toHaveLength(4);
    await thread.close();
  });
});
