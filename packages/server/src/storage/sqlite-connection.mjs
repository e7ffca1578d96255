// Plain JavaScript (no TypeScript loader needed): loaded by the main thread through db.ts and by
// the decision writer thread (decisions/decision-writer.worker.mjs), which opens its own connection.
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';

/**
 * Page cache of each connection, in KiB. better-sqlite3 builds SQLite with 16 MB per connection
 * (cache_size -16000), which two connections fill as the file grows: up to 32 MB of the process's
 * memory for pages the OS page cache holds anyway. The main thread's connection runs the reads
 * (dashboard, searches); the decision writer's appends, whose hot pages are the indexes' interior
 * pages and newest leaves; the WAL checkpointer's only passes pages from the WAL to the file.
 * Measured with bench/soak.ts: the process's RSS (docs/architecture.md).
 */
export const SQLITE_CACHE_KB = { main: 8192, writer: 4096, checkpointer: 1024 };

/**
 * WAL pages (4 KiB each, ~64 MB) past which a commit checkpoints after all: far more than the
 * checkpointer thread lets the WAL reach (bench/latency.ts: the checkpoints it reports).
 */
export const WAL_BACKSTOP_PAGES = 16000;

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
  // Checkpoints are the WAL checkpointer thread's (wal-checkpointer.ts), never a commit's: a commit
  // that ran one (copy and fsync thousands of pages) held its whole batch's answers for tens of
  // milliseconds. The automatic checkpoint stays only as a backstop bounding the WAL, should that
  // thread stop or fall behind.
  sqlite.pragma(`wal_autocheckpoint = ${WAL_BACKSTOP_PAGES}`);
  sqlite.pragma(`cache_size = -${Math.floor(cacheKb)}`);
  return sqlite;
}
