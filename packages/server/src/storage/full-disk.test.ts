import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../testing/accounts.ts';
import { createTestApp, type TestApp } from '../testing/context.ts';
import { loginEvent, serverHeaders } from '../testing/scoring-app.ts';

/**
 * A full disk for real (issue 26): the SQLite file on a small tmpfs filled to the last byte, its
 * writer thread and WAL as in production. storage-space.test.ts simulates the same with
 * `max_page_count` everywhere; this one needs root and `mount` (CI and the development machines run
 * as root) and says so when it cannot mount.
 */
const MOUNT = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-full-disk-'));
const mounted = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', MOUNT], { stdio: 'pipe' });
    return true;
  } catch (err) {
    console.warn(`[warden tests] full-disk test on a real filesystem not run: cannot mount a tmpfs (${err})`);
    return false;
  }
})();

/** Fills the filesystem: one file grown until the disk refuses (ENOSPC). */
function fill(file: string): void {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (let size = chunk.length; size >= 1; ) {
      try {
        fs.writeSync(fd, chunk, 0, size);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        size = Math.floor(size / 2);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

describe.skipIf(!mounted)('a full disk (SQLite file on a 16 MB tmpfs)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ sqliteFile: true, sqliteParent: MOUNT });
  });
  afterAll(async () => {
    await t?.close();
    execFileSync('umount', [MOUNT]);
    fs.rmdirSync(MOUNT);
  });

  it('refuses each write with 503, /readyz not ready, the database intact; recovers when space returns', async () => {
    const w = await createTestWorkspace(t.ctx, { plan: 'pro' });
    const verify = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/antibot/verify',
        headers: serverHeaders(w.site),
        payload: loginEvent(`acct_${n}`),
      });
    expect((await verify(0)).statusCode).toBe(201);
    const filler = path.join(MOUNT, 'filler');
    fill(filler);

    let refused: Awaited<ReturnType<typeof verify>> | undefined;
    let recorded = 1;
    for (let n = 1; n < 2000 && !refused; n++) {
      const res = await verify(n);
      if (res.statusCode === 201) recorded++;
      else refused = res;
    }
    expect(refused?.statusCode).toBe(503);
    expect(refused?.json().error).toMatchObject({ code: 'unavailable' });
    expect(refused?.json().error.message).toMatch(/full/);
    const notReady = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json().error.message).toMatch(/"storage":"full since /);

    // Nothing corrupt, nothing half-written: every acknowledged decision is there, no other.
    const sqlite = t.ctx.database.sqlite!;
    expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(await t.ctx.database.db.selectFrom('decisions').select('id').execute()).toHaveLength(recorded);

    // Space again: the probe finds it, decisions are recorded.
    fs.rmSync(filler);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await verify(5000)).statusCode).toBe(201);
    expect(await t.ctx.database.db.selectFrom('decisions').select('id').execute()).toHaveLength(recorded + 1);
  });
});
