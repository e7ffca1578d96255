// Plain JavaScript (no TypeScript loader needed): loaded by the main thread through db.ts and by
// the decision writer thread (scoring/decision-writer.worker.mjs), which opens its own connection.
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';

/**
 * Page cache of each connection, in KiB. better-sqlite3 builds SQLite with 16 MB per connection
 * (cache_size -16000), which two connections fill as the file grows: up to 32 MB of the process's
 * memory for pages the OS page cache holds anyway. The main thread's connection runs the reads
 * (dashboard, searches); the decision writer's appends, whose hot pages are the indexes' interior
 * pages and newest leaves. Measured with bench/soak.ts: the process's RSS (docs/architecture.md).
 */
export const SQLITE_CACHE_KB = { main: 8192, writer: 4096 };

/**
 * Open `file` (or ':memory:') with Warden's settings; every connection to the file gets the same
 * but its page cache (`cacheKb`, one of SQLITE_CACHE_KB).
 */
export function openSqlite(file, cacheKb = SQLITE_CACHE_KB.main) {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a committed transaction survives a process crash (SIGKILL);
  // only an OS crash or power loss can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Two connections write the file (this thread and the decision writer thread): a writer waits
  // for the other's transaction instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  // Checkpoint every 8,000 pages (~32 MB of WAL) instead of 1,000: a page that several commits
  // change is copied into the database once per checkpoint, and the decisions' indexes change the
  // same pages often. The WAL is a file (page cache, not the process's memory); its index in the
  // -shm file grows by 32 KB per 4,096 pages. Measured with bench/writer.ts: the writer thread's
  // CPU per decision −10–15 %.
  sqlite.pragma('wal_autocheckpoint = 8000');
  sqlite.pragma(`cache_size = -${Math.floor(cacheKb)}`);
  return sqlite;
}
