import { afterEach, describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../testing/accounts.ts';
import { createTestApp, type TestApp } from '../testing/context.ts';
import { loginEvent, serverHeaders } from '../testing/scoring-app.ts';
import { isStorageFull } from './storage-space.ts';

/**
 * A full disk, simulated with SQLite's `max_page_count` (the database cannot grow past the pages it
 * has: every write that needs a new page fails with SQLITE_FULL, as on a full disk).
 */
describe('a full database', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('answers 503 unavailable per write and on /readyz, stays intact, and recovers when there is room', async () => {
    t = await createTestApp();
    const w = await createTestWorkspace(t.ctx, { plan: 'pro' });
    const sqlite = t.ctx.database.sqlite!;
    const verify = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/antibot/verify',
        headers: serverHeaders(w.site),
        payload: loginEvent(`acct_${n}`),
      });
    expect((await verify(0)).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

    // No more pages: the free room left in the last pages fills, then every write is refused.
    sqlite.pragma(`max_page_count = ${sqlite.pragma('page_count', { simple: true })}`);
    let refused: Awaited<ReturnType<typeof verify>> | undefined;
    let recorded = 1;
    for (let n = 1; n < 500 && !refused; n++) {
      const res = await verify(n);
      if (res.statusCode === 201) recorded++;
      else refused = res;
    }
    expect(refused?.statusCode).toBe(503);
    expect(refused?.headers['retry-after']).toBe('30');
    expect(refused?.json()).toMatchObject({
      success: false,
      error: { code: 'unavailable', message: 'The database is full: nothing was recorded. Retry later.' },
    });
    expect((await verify(1000)).statusCode).toBe(503);

    const notReady = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json().error.code).toBe('not_ready');
    expect(notReady.json().error.message).toMatch(/"storage":"full since .*database or disk is full/);

    // Nothing corrupt, nothing half-written: every acknowledged decision is there, no other.
    expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = await t.ctx.database.db.selectFrom('decisions').select('id').execute();
    expect(rows).toHaveLength(recorded);

    // Room again: /readyz's probe finds it, and decisions are recorded.
    sqlite.pragma('max_page_count = 1073741823');
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await verify(2000)).statusCode).toBe(201);
    expect(await t.ctx.database.db.selectFrom('storage_probe').selectAll().execute()).toEqual([]);
  });

  it('recognises a full disk on either database, however wrapped', () => {
    expect(isStorageFull(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(
      true,
    );
    expect(isStorageFull(Object.assign(new Error('could not extend file'), { code: '53100' }))).toBe(true);
    expect(isStorageFull(new Error('commit failed', { cause: { code: 'SQLITE_FULL' } }))).toBe(true);
    // A worker's commit failure, as the primary passes it on: the message only.
    expect(isStorageFull(new Error('database or disk is full'))).toBe(true);
    expect(isStorageFull(new Error('could not extend file "base/1/2": No space left on device'))).toBe(true);
    expect(isStorageFull(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }))).toBe(false);
    expect(isStorageFull('SQLITE_FULL')).toBe(false);
  });
});
