import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, testDialects } from '../testing/context.ts';
import type { Database } from './db.ts';
import { MAX_ROWS_PER_INSERT, multiRowInsert, multiRowStatement } from './multi-row-insert.ts';

describe.each(testDialects())('multi-row statements on %s', (dialect) => {
  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
  });
  afterEach(() => database.close());

  const settings = () => database.db.selectFrom('instance_settings').selectAll().orderBy('key').execute();

  it('inserts any number of rows, one statement per MAX_ROWS_PER_INSERT, in column order', async () => {
    const insert = multiRowInsert(database.db, 'instance_settings', ['key', 'value']);
    const rows = Array.from({ length: MAX_ROWS_PER_INSERT + 2 }, (_, i) => ({
      key: `k${String(i).padStart(3, '0')}`,
      value: `v${i}`,
    }));
    const statements = insert(rows);
    expect(statements).toHaveLength(2);
    for (const statement of statements) await database.db.executeQuery(statement);
    expect(await settings()).toEqual(rows);
    // The same count again: the same SQL, new values.
    const again = insert([{ key: 'k000', value: 'x' }]);
    expect(again[0]!.sql).toBe(insert([{ key: 'k001', value: 'y' }])[0]!.sql);
    expect(again[0]!.parameters).toEqual(['k000', 'x']);
  });

  it('keeps the values the statement was built with, around the rows’ own', async () => {
    const upsert = multiRowStatement(database.db, ['key', 'value'] as const, (db, rows) =>
      db
        .insertInto('instance_settings')
        .values(rows)
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: 'replaced' })),
    );
    for (const statement of upsert([{ key: 'a', value: 'one' }])) await database.db.executeQuery(statement);
    for (const statement of upsert([
      { key: 'a', value: 'two' },
      { key: 'b', value: 'three' },
    ]))
      await database.db.executeQuery(statement);
    expect(await settings()).toEqual([
      { key: 'a', value: 'replaced' },
      { key: 'b', value: 'three' },
    ]);
  });
});
