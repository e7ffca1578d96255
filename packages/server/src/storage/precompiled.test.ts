import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, testDialects } from '../testing/context.ts';
import type { Database } from './db.ts';
import { precompiled } from './precompiled.ts';

describe.each(testDialects())('precompiled queries on %s', (dialect) => {
  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
  });
  afterEach(() => database.close());

  it('compiles once and runs with each call’s arguments, keeping the built-in values', async () => {
    let builds = 0;
    const insert = precompiled((db, arg: (name: 'key' | 'value') => string) => {
      builds++;
      return db.insertInto('instance_settings').values({ key: arg('key'), value: arg('value') });
    });
    const visible = precompiled((db, arg: (name: 'key') => string) => {
      builds++;
      return db
        .selectFrom('instance_settings')
        .select(['key', 'value'])
        .where('key', '=', arg('key'))
        .where('value', '!=', 'hidden');
    });
    for (const [key, value] of [
      ['a', 'one'],
      ['b', 'two'],
      ['c', 'hidden'],
    ])
      expect(Number((await insert(database.db, { key, value })).numAffectedRows)).toBe(1);
    expect((await visible(database.db, { key: 'b' })).rows).toEqual([{ key: 'b', value: 'two' }]);
    expect((await visible(database.db, { key: 'a' })).rows).toEqual([{ key: 'a', value: 'one' }]);
    expect((await visible(database.db, { key: 'c' })).rows).toEqual([]);
    expect(builds).toBe(2);
  });
});
