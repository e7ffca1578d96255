import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, SQLITE_CACHE_KB, WAL_BACKSTOP_PAGES } from './sqlite-connection.mjs';
import { type CheckpointRound, WalCheckpointer } from './wal-checkpointer.ts';

/** Commits one small row each, as the writer thread's group commits do (a table and an index page). */
function commitRows(sqlite: SqliteDatabase.Database, count: number, from = 0): void {
  const insert = sqlite.prepare('insert into t (id, v) values (?, ?)');
  for (let i = from; i < from + count; i++) insert.run(i, `row ${i} ${'x'.repeat(40)}`);
}

const size = (file: string) => fs.statSync(file).size;

describe('WAL checkpoints run on their own thread, never in a commit', () => {
  let dir: string;
  let file: string;
  let writer: SqliteDatabase.Database;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-checkpoint-'));
    file = path.join(dir, 'warden.db');
    writer = openSqlite(file, SQLITE_CACHE_KB.writer);
    writer.exec('create table t (id integer primary key, v text not null); create index t_v on t (v)');
  });
  afterEach(() => {
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('leaves thousands of commits in the WAL (the automatic checkpoint is only a backstop)', () => {
    const dbBefore = size(file);
    // Each commit appends at least two pages: well past SQLite's default of 1,000 and the 8,000
    // Warden used to checkpoint at, below the backstop.
    commitRows(writer, 5000);
    const frames = (fs.statSync(`${file}-wal`).size - 32) / (4096 + 24);
    expect(frames).toBeGreaterThan(8000);
    expect(frames).toBeLessThan(WAL_BACKSTOP_PAGES);
    // No commit copied a page into the database file.
    expect(size(file)).toBe(dbBefore);
    expect(writer.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_BACKSTOP_PAGES);
  });

  it('copies the WAL into the database between commits, and the WAL restarts instead of growing', async () => {
    const rounds: CheckpointRound[] = [];
    const warnings: string[] = [];
    const checkpointer = new WalCheckpointer(
      file,
      (r) => rounds.push(r),
      (m) => warnings.push(m),
      10,
    );
    try {
      const dbBefore = size(file);
      let walPeak = 0;
      for (let chunk = 0; chunk < 20; chunk++) {
        commitRows(writer, 250, chunk * 250);
        const chunkEnd = performance.timeOrigin + performance.now();
        walPeak = Math.max(walPeak, size(`${file}-wal`));
        // A round of the checkpointer thread whose last pass started after the chunk and caught
        // up (one that ran during the chunk's commits could not); the main thread only waits here.
        // One whose last pass began between the last commit and `chunkEnd` caught up too, and the
        // WAL unchanged since is not reported again: a second is waited at most.
        const caughtUp = () => rounds.some((r) => r.complete && r.lastPassAt >= chunkEnd);
        for (let waited = 0; !caughtUp() && waited < 1000; waited += 5)
          await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(warnings).toEqual([]);
      expect(rounds.filter((r) => r.complete).length).toBeGreaterThanOrEqual(20);
      expect(size(file)).toBeGreaterThan(dbBefore);
      // 5,000 commits without checkpoints made a WAL of ~11,000 pages (the test above); with them
      // it restarted after every chunk: never much more than a chunk's ~560 pages.
      expect(walPeak / (4096 + 24)).toBeLessThan(1200);
      expect(writer.prepare('select count(*) as n from t').get()).toEqual({ n: 5000 });
    } finally {
      await checkpointer.close();
    }
  });
});
