import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../storage/db.ts';
import { openTestDatabase, testDialects } from '../testing/context.ts';

/** The definitions of the decisions table's indexes, by name (primary key left out). */
async function decisionIndexes(database: Database): Promise<Record<string, string>> {
  const rows =
    database.dialect === 'postgres'
      ? (
          await sql<{ name: string; definition: string }>`
            select indexname as name, indexdef as definition from pg_indexes
            where tablename = 'decisions' and indexname <> 'decisions_pkey'`.execute(database.db)
        ).rows
      : (
          await sql<{ name: string; definition: string }>`
            select name, sql as definition from sqlite_master
            where type = 'index' and tbl_name = 'decisions' and sql is not null`.execute(database.db)
        ).rows;
  return Object.fromEntries(rows.map((r) => [r.name, r.definition]));
}

describe.each(testDialects())('the decisions indexes on %s (migration 026)', (dialect) => {
  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
  });
  afterEach(() => database.close());

  it('look decisions up by account, IP, device, e-mail, payment and promo code without the site id in each entry', async () => {
    const indexes = await decisionIndexes(database);
    for (const name of [
      'decisions_account',
      'decisions_ip',
      'decisions_device',
      'decisions_email',
      'decisions_payment',
      'decisions_promo',
    ]) {
      expect(indexes[name], name).toBeDefined();
      expect(indexes[name], name).not.toMatch(/site_id/);
    }
    for (const gone of ['decisions_site_account', 'decisions_site_ip', 'decisions_site_device'])
      expect(indexes[gone]).toBeUndefined();
    // The lists and scans still read a site's decisions in time order.
    expect(indexes.decisions_site_time_id).toMatch(/site_id.*created_at.*id/);
  });

  it.runIf(dialect === 'sqlite')('serves a site and account lookup from the account index', async () => {
    const plan = await sql<{ detail: string }>`
      explain query plan select id from decisions where site_id = ${'s'} and account_id = ${'a'}`.execute(
      database.db,
    );
    expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/decisions_account/);
  });
});
