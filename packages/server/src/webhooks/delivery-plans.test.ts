import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kyselyOnRunner } from '../decisions/writer-kysely.ts';
import type { Database } from '../storage/db.ts';
import { openTestDatabase } from '../testing/context.ts';
import { readConfiguration } from './configuration.ts';
import { claimDueDeliveries, completeAttempt, completeSuccesses, countPending } from './delivery-store.ts';
import { cancelPendingOfSites } from './outbox.ts';

/**
 * The outbox indexes only what its queries read (migration 021: partial indexes of pending rows):
 * each query of the dispatcher and of the webhook page must still find its rows through an index,
 * never by scanning the deliveries table (SQLite's query plans).
 */
describe('delivery queries on sqlite', () => {
  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase('sqlite');
  });
  afterEach(() => database.close());

  /** The SQLite query plans of the statements `run` sends (each then run on the empty table). */
  async function plansOf(
    run: (db: ReturnType<typeof kyselyOnRunner>) => Promise<unknown>,
  ): Promise<string[]> {
    const plans: string[] = [];
    const db = kyselyOnRunner(async (sql, parameters) => {
      const steps = database.sqlite!.prepare(`explain query plan ${sql}`).all(...parameters) as Array<{
        detail: string;
      }>;
      plans.push(steps.map((s) => s.detail).join('; '));
      const statement = database.sqlite!.prepare(sql);
      return statement.reader
        ? { rows: statement.all(...parameters) }
        : { rows: [], changes: statement.run(...parameters).changes };
    });
    await run(db);
    return plans;
  }

  it.each([
    [
      'claim',
      (db) => claimDueDeliveries(db, 'sqlite', 'w', 10, 1000, 30_000),
      'webhook_deliveries_pending_due',
    ],
    ['count of pending', (db) => countPending(db), 'webhook_deliveries_pending_due'],
    [
      'cancel of a site',
      (db) => cancelPendingOfSites(db, ['s1', 's2'], 'off', 1000),
      'webhook_deliveries_site_pending',
    ],
    [
      'successes',
      (db) => completeSuccesses(db, 'w', ['a', 'b'], 200, '', 1000),
      'sqlite_autoindex_webhook_deliveries_1',
    ],
    [
      'one attempt',
      (db) =>
        completeAttempt(
          db,
          'a',
          'w',
          {
            status: 'pending',
            attempts: 1,
            lastStatusCode: 500,
            lastError: 'x',
            lastResponseBody: null,
            nextAttemptAt: 2000,
          },
          1000,
        ),
      'sqlite_autoindex_webhook_deliveries_1',
    ],
    ['latest of a site', (db) => readConfiguration(db, 's1'), 'webhook_deliveries_site_time'],
  ] as Array<[string, (db: ReturnType<typeof kyselyOnRunner>) => Promise<unknown>, string]>)(
    'the %s query reads through an index',
    async (_name, run, index) => {
      const plans = await plansOf(run);
      const delivery = plans.filter((p) => p.includes('webhook_deliveries'));
      expect(delivery.length).toBeGreaterThan(0);
      for (const plan of delivery) expect(plan).not.toMatch(/SCAN webhook_deliveries(?! USING)/);
      expect(delivery.join('; ')).toContain(index);
    },
  );
});
