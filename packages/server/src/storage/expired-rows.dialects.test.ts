import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepUsedChallenges } from '../challenge/index.ts';
import { sweepIdempotencyKeys } from '../decisions/key-queries.ts';
import { openTestDatabase, testDialects } from '../testing/context.ts';
import type { Database } from './db.ts';
import { deleteExpiredRows } from './expired-rows.ts';

const T0 = 1_795_000_000_000;

describe.each(testDialects())('expired rows are swept in chunks (%s)', (dialect) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.close());

  const keyRows = (count: number, from: number, prefix: string) =>
    Array.from({ length: count }, (_, i) => ({
      site_id: 'site_x',
      route: 'verify',
      key: `${prefix}${i}`,
      body_hash: 'h',
      decision_id: `d_${prefix}${i}`,
      // Pairs of rows share a time: a chunk's last time takes its twin along.
      created_at: from + Math.floor(i / 2),
    }));

  it('deletes only what is before the bound, a chunk per statement, yielding between them', async () => {
    const db = database.db;
    await db
      .insertInto('idempotency_keys')
      .values(keyRows(1234, T0, 'old'))
      .execute();
    await db
      .insertInto('idempotency_keys')
      .values(keyRows(10, T0 + 10_000, 'new'))
      .execute();
    let turns = 0;
    const deleted = await deleteExpiredRows(
      db,
      { table: 'idempotency_keys', column: 'created_at' },
      T0 + 10_000,
      100,
      async () => {
        turns++;
      },
    );
    expect(deleted).toBe(1234);
    // 1,234 rows at ~100 a statement: 12 full chunks (and the rest), a turn given back after each.
    expect(turns).toBeGreaterThanOrEqual(12);
    expect(turns).toBeLessThanOrEqual(13);
    const left = await db.selectFrom('idempotency_keys').select('key').orderBy('key').execute();
    expect(left.map((r) => r.key)).toEqual(
      keyRows(10, 0, 'new')
        .map((r) => r.key)
        .sort(),
    );
  });

  it('the scoring sweeps keep their bounds: keys for 24 h, used challenges until they expire', async () => {
    const db = database.db;
    await db.deleteFrom('idempotency_keys').execute();
    const day = 24 * 60 * 60 * 1000;
    await db
      .insertInto('idempotency_keys')
      .values(keyRows(3, T0, 'k'))
      .execute();
    expect(await sweepIdempotencyKeys(db, T0 + day)).toBe(0);
    expect(await sweepIdempotencyKeys(db, T0 + 1 + day)).toBe(2);
    await db
      .insertInto('used_challenges')
      .values([
        { site_id: 'site_x', salt: 'a', expires_at: T0 },
        { site_id: 'site_x', salt: 'b', expires_at: T0 + 1 },
      ])
      .execute();
    expect(await sweepUsedChallenges(db, T0 - 1)).toBe(0);
    expect(await sweepUsedChallenges(db, T0)).toBe(1);
    expect(await sweepUsedChallenges(db, T0 + 1)).toBe(1);
  });
});
