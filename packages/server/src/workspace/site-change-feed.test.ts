import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../storage/db.ts';
import { openTestDatabase } from '../testing/context.ts';
import { SiteChangeFeed } from './site-change-feed.ts';
import { SiteKeyCache } from './site-key-cache.ts';

describe('site change feed (SQLite: no listener)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  function newFeed() {
    const cache = new SiteKeyCache<string>();
    const feed = new SiteChangeFeed(database, cache, pino({ level: 'silent' }));
    const told: string[] = [];
    feed.alsoTell(() => told.push('other workers'));
    return { cache, feed, told };
  }

  it('remembers lookups from the start, with nothing to listen to', async () => {
    const { cache, feed: f } = newFeed();
    await f.whenListening();
    await cache.lookup('pk_a', 0, async () => 'site a');
    expect(cache.get('pk_a', 1)).toBe('site a');
  });

  it('forgets and tells the others at once of a change outside a transaction', async () => {
    const { cache, feed: f, told } = newFeed();
    await cache.lookup('pk_a', 0, async () => 'site a');
    await f.changed(database.db);
    expect(cache.get('pk_a', 1)).toBeUndefined();
    expect(told).toEqual(['other workers']);
  });

  it('tells the others of a change in a transaction only once it is committed, and forgets again then', async () => {
    const { cache, feed: f, told } = newFeed();
    await database.db.transaction().execute(async (trx) => {
      await f.changed(trx);
      expect(told).toEqual([]);
      // A lookup while the change is not yet committed may read the row as it was.
      await cache.lookup('pk_a', 0, async () => 'site a as it was');
    });
    expect(cache.get('pk_a', 1)).toBe('site a as it was');
    f.committed();
    expect(cache.get('pk_a', 1)).toBeUndefined();
    expect(told).toEqual(['other workers']);
  });
});
