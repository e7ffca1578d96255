// The decision writer thread: its own connection to the SQLite file, running the group commits the
// main thread sends (decision-writer.ts), so inserts, index updates and WAL checkpoints run on the
// second core while the main thread goes on scoring. A commit is answered only once it is durable.
// It also runs the webhook dispatcher's writes (claims, results), so that the main thread never
// waits for the write lock.
import { writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite, SQLITE_CACHE_KB } from '../storage/sqlite-connection.mjs';
import { decisionCommit } from './decision-commit.mjs';

// Named for `top -H` and the benchmark's CPU per thread (bench/lib/proc-stat.ts); Linux only.
try {
  writeFileSync('/proc/thread-self/comm', 'warden-writer');
} catch {
  // Another system: the thread keeps its name.
}

const sqlite = openSqlite(workerData.file, SQLITE_CACHE_KB.writer);
const commit = decisionCommit(sqlite, workerData.sql);
// The connection is open and the statements prepared: the main thread may count on this thread.
parentPort.postMessage({ type: 'ready' });

/** Prepared statements of `run` messages by SQL text (the webhook dispatcher's few queries). */
const statements = new Map();
function prepared(source) {
  let statement = statements.get(source);
  if (!statement) {
    statement = sqlite.prepare(source);
    if (statements.size >= 100) statements.clear();
    statements.set(source, statement);
  }
  return statement;
}

/** One statement, answered as Kysely's SQLite driver would (rows, or changes and the row id). */
function run(sql, parameters) {
  const statement = prepared(sql);
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], changes, lastInsertRowid: Number(lastInsertRowid) };
}

// Messages: {type: 'commit', id, writes}, {type: 'run', id, sql, parameters}, {type: 'close'}.
parentPort.on('message', (message) => {
  if (message.type === 'close') {
    sqlite.close();
    parentPort.close();
    return;
  }
  const type = message.type;
  try {
    const answer = type === 'run' ? run(message.sql, message.parameters) : commit(message.writes);
    parentPort.postMessage({ type, id: message.id, ...answer });
  } catch (err) {
    parentPort.postMessage({
      type,
      id: message.id,
      error: err instanceof Error ? err.message : String(err),
      code: typeof err?.code === 'string' ? err.code : undefined,
    });
  }
});
