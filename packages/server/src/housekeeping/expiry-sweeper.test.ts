import type SqliteDatabase from 'better-sqlite3';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DecisionWriter } from '../decisions/decision-writer.ts';
import type { Database } from '../storage/db.ts';
import { openSqlite } from '../storage/sqlite-connection.mjs';
import { openFileTestDatabase } from '../testing/context.ts';
import { OutboxSignal } from '../webhooks/outbox.ts';
import { createSite } from '../webhooks/test-fixtures.ts';
import { ExpirySweeper } from './expiry-sweeper.ts';

describe('the expiry sweeper on a SQLite file', () => {
  let database: Database;
  let other: SqliteDatabase.Database;
  beforeEach(async () => {
    database = await openFileTestDatabase();
    other = openSqlite(database.sqliteFile!);
  });
  afterEach(async () => {
    other.close();
    await database.close();
  });

  it('deletes on the writer thread: the main thread goes on while another connection holds the write lock', async () => {
    const site = await createSite(database, 'pro');
    await database.db
      .insertInto('idempotency_keys')
      .values(
        Array.from({ length: 50 }, (_, i) => ({
          site_id: site.siteId,
          route: 'verify',
          key: `k${i}`,
          body_hash: 'h',
          decision_id: `d${i}`,
          created_at: 0,
        })),
      )
      .execute();
    const writer = new DecisionWriter(database, new OutboxSignal());
    await writer.ready();
    const warnings: unknown[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const sweeper = new ExpirySweeper({
      writes: () => writer.writes,
      logger,
      now: () => Date.now(),
      retention: { decisionDays: 365, evidenceDays: 30 },
    });

    // Another connection's transaction holds the write lock (as a group commit does, briefly).
    other.exec('begin immediate');
    const sweeping = sweeper.sweep();
    // The main thread is not held: timers run, this connection can commit when its turn comes.
    // (Deleting on the main thread's connection would block it in SQLite's busy wait, 5 s, and fail.)
    await new Promise((resolve) => setTimeout(resolve, 50));
    other.exec('commit');
    await sweeping;

    expect(warnings).toEqual([]);
    const left = await database.db.selectFrom('idempotency_keys').select('key').execute();
    expect(left).toEqual([]);
  });
});
