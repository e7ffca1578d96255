// Plain JavaScript (no TypeScript loader needed): loaded by the main thread through db.ts and by
// the decision writer thread (scoring/decision-writer.worker.mjs), which opens its own connection.
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';

/** Open `file` (or ':memory:') with Warden's settings; every connection to the file gets the same. */
export function openSqlite(file) {
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
  return sqlite;
}
