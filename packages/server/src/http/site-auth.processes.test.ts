// Two server processes on one PostgreSQL database (scale mode), as two apps on one test schema: a
// key rotated through one stops working in the other at once (interface §5 rule 6), told by NOTIFY.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../testing/accounts.ts';
import { createTestApp, TEST_DATABASE_URL, type TestApp } from '../testing/context.ts';
import { loginEvent, serverHeaders } from '../testing/scoring-app.ts';
import { announcedSiteChanges, siteChangeChannel } from '../workspace/site-change-feed.ts';
import { setPlan } from '../workspace/workspaces.ts';

/** Lookups remembered for an hour: only a change can end them within this test. */
const HOUR_MS = 3_600_000;
/** How long a NOTIFY may take to reach the other process. */
const DELIVERY_MS = 200;

async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
}

/** The owner rotates the site's keys through app `on`'s management API. */
function rotateKeys(on: TestApp, w: Awaited<ReturnType<typeof createTestWorkspace>>) {
  return on.app.inject({
    method: 'POST',
    url: `/api/sites/${w.site.id}/rotate-keys`,
    headers: w.owner.headers,
  });
}

describe.skipIf(!TEST_DATABASE_URL)('site lookups across server processes on PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ dialect: 'postgres', siteKeyTtlMs: HOUR_MS });
    b = await createTestApp({ sameDatabaseAs: a.ctx.database, siteKeyTtlMs: HOUR_MS });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const verifyOn = (t: TestApp, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/antibot/verify', headers, payload: loginEvent() as object });
  const remembered = (t: TestApp, siteKey: string) =>
    t.ctx.services.siteKeys.get(siteKey, t.ctx.now()) !== undefined;

  it('refuses a key rotated through another process right after the rotation', async () => {
    await Promise.all([
      a.ctx.services.siteChanges.whenListening(),
      b.ctx.services.siteChanges.whenListening(),
    ]);
    const w = await createTestWorkspace(a.ctx);
    expect((await verifyOn(b, serverHeaders(w.site))).statusCode).toBe(201);
    // B remembers the key: without being told, it would accept it for the hour.
    expect(remembered(b, w.site.siteKey)).toBe(true);

    const rotated = await rotateKeys(a, w);
    expect(rotated.statusCode).toBe(200);
    await until(() => !remembered(b, w.site.siteKey), DELIVERY_MS);

    const old = await verifyOn(b, serverHeaders(w.site));
    expect(old.statusCode).toBe(401);
    expect(old.json().error.code).toBe('invalid_site_key');
    const keys = rotated.json().data as { siteKey: string; secretKey: string };
    expect((await verifyOn(b, serverHeaders(keys))).statusCode).toBe(201);
  });

  it('sees an origin list changed through another process on the next request', async () => {
    await b.ctx.services.siteChanges.whenListening();
    const w = await createTestWorkspace(a.ctx, { origins: ['https://shop.example'] });
    const collect = () =>
      b.app.inject({
        method: 'POST',
        url: '/api/antibot/collect',
        headers: { 'x-site-key': w.site.siteKey, origin: 'https://shop.example' },
        payload: loginEvent() as object,
      });
    expect((await collect()).statusCode).toBe(201);
    expect(remembered(b, w.site.siteKey)).toBe(true);
    const patched = await a.app.inject({
      method: 'PATCH',
      url: `/api/sites/${w.site.id}`,
      headers: w.owner.headers,
      payload: { allowedOrigins: ['https://moved.example'] },
    });
    expect(patched.statusCode).toBe(200);
    await until(() => !remembered(b, w.site.siteKey), DELIVERY_MS);
    expect((await collect()).json().error.code).toBe('origin_not_allowed');
  });

  it('sees a plan changed by a CLI command at once (it announces the change too)', async () => {
    await b.ctx.services.siteChanges.whenListening();
    const w = await createTestWorkspace(a.ctx);
    expect((await verifyOn(b, serverHeaders(w.site))).json().data.identity).toBeUndefined();
    expect(remembered(b, w.site.siteKey)).toBe(true);
    // As `warden workspace plan` does (cli-admin.ts): its own connections, no site cache.
    await setPlan(a.ctx.database.db, w.workspaceId, 'pro', Date.now(), announcedSiteChanges(a.ctx.database));
    await until(() => !remembered(b, w.site.siteKey), DELIVERY_MS);
    expect((await verifyOn(b, serverHeaders(w.site))).json().data.identity).toBeDefined();
  });

  it('remembers nothing while its listener is down, and listens again', async () => {
    await b.ctx.services.siteChanges.whenListening();
    const w = await createTestWorkspace(a.ctx);
    // Drop every listener of this schema's channel (A's and B's), as a restarted database would.
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where query = $1`,
        [`listen "${siteChangeChannel(a.ctx.database.pgSchema)}"`],
      );
      expect(rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    // Once B has noticed, a lookup is not remembered: a change it could not hear of would be missed.
    let notRemembered = false;
    const deadline = Date.now() + 5_000;
    while (!notRemembered && Date.now() < deadline) {
      expect((await verifyOn(b, serverHeaders(w.site))).statusCode).toBe(201);
      notRemembered = !remembered(b, w.site.siteKey);
      b.ctx.services.siteKeys.changed();
    }
    expect(notRemembered).toBe(true);

    await b.ctx.services.siteChanges.whenListening();
    expect((await verifyOn(b, serverHeaders(w.site))).statusCode).toBe(201);
    expect(remembered(b, w.site.siteKey)).toBe(true);
    await a.ctx.services.siteChanges.whenListening();
    const rotated = await rotateKeys(a, w);
    expect(rotated.statusCode).toBe(200);
    await until(() => !remembered(b, w.site.siteKey), DELIVERY_MS);
    expect((await verifyOn(b, serverHeaders(w.site))).json().error.code).toBe('invalid_site_key');
  });
});
