import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDialects } from '../testing/context.ts';
import { type Database, migrate, ping } from './db.ts';
import { loadInstanceSecret } from './instance-secret.ts';

// The storage conformance suite: the same assertions on SQLite and (when configured) PostgreSQL.
describe.each(testDialects())('storage conformance (%s)', (dialect) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.close());

  it('answers ping and re-running migrations applies nothing', async () => {
    await ping(database);
    expect(await migrate(database)).toEqual([]);
  });

  it('round-trips epoch-millisecond times as numbers and JSON as text', async () => {
    const now = 1_795_000_000_123;
    await database.db
      .insertInto('workspaces')
      .values({ id: 'ws_rt', name: 'W', plan: 'pro', demo: 1, created_at: now, updated_at: now })
      .execute();
    await database.db
      .insertInto('sites')
      .values({
        id: 'site_rt',
        workspace_id: 'ws_rt',
        name: 'S',
        site_key: 'pk_rt',
        secret_key_hash: 'h',
        allowed_origins: JSON.stringify(['https://a.example']),
        settings: '{}',
        keys_rotated_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const site = await database.db
      .selectFrom('sites')
      .selectAll()
      .where('id', '=', 'site_rt')
      .executeTakeFirstOrThrow();
    expect(site.created_at).toBe(now);
    expect(typeof site.created_at).toBe('number');
    expect(JSON.parse(site.allowed_origins)).toEqual(['https://a.example']);
    const ws = await database.db
      .selectFrom('workspaces')
      .selectAll()
      .where('id', '=', 'ws_rt')
      .executeTakeFirstOrThrow();
    expect(ws.demo).toBe(1);
  });

  it('enforces unique e-mails and site keys', async () => {
    const user = (id: string) => ({
      id,
      email: 'dup@example.com',
      name: 'n',
      password_hash: null,
      created_at: 1,
      updated_at: 1,
    });
    await database.db.insertInto('users').values(user('u1')).execute();
    await expect(database.db.insertInto('users').values(user('u2')).execute()).rejects.toThrow();
  });

  it('rolls back a failed transaction completely', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('workspaces')
          .values({ id: 'ws_tx', name: 'W', plan: 'free', demo: 0, created_at: 1, updated_at: 1 })
          .execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const row = await database.db
      .selectFrom('workspaces')
      .select('id')
      .where('id', '=', 'ws_tx')
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('cascades deletes from workspaces to sites and memberships', async () => {
    await database.db.deleteFrom('workspaces').where('id', '=', 'ws_rt').execute();
    const site = await database.db
      .selectFrom('sites')
      .select('id')
      .where('id', '=', 'site_rt')
      .executeTakeFirst();
    expect(site).toBeUndefined();
  });

  it('generates one instance secret and keeps it', async () => {
    const first = await loadInstanceSecret(database, undefined);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(await loadInstanceSecret(database, undefined)).toBe(first);
    expect(await loadInstanceSecret(database, 'x'.repeat(40))).toBe('x'.repeat(40));
  });
});
