// The decision writer thread: its own connection to the SQLite file, running the group commits the
// main thread sends (decision-writer.ts), so inserts, index updates and WAL checkpoints run on the
// second core while the main thread goes on scoring. A commit is answered only once it is durable.
// It also hashes request bodies for idempotency (canonical JSON of the raw text), which would
// otherwise cost the main thread a few per cent of each decision, and runs the webhook
// dispatcher's writes (claims, results), so that the main thread never waits for the write lock.
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from '../storage/sqlite-connection.mjs';
import { canonicalTextHash } from './canonical-json.mjs';
import { decisionCommit } from './decision-commit.mjs';

const sqlite = openSqlite(workerData.file);
const commit = decisionCommit(sqlite, workerData.sql);

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

// Messages: {type: 'commit', id, writes}, {type: 'run', id, sql, parameters}, {type: 'hash', id,
// text}, {type: 'close'}.
parentPort.on('message', (message) => {
  if (message.type === 'close') {
    sqlite.close();
    parentPort.close();
    return;
  }
  if (message.type === 'hash') {
    let hash = null;
    try {
      hash = canonicalTextHash(message.text);
    } catch {
      // Answered with null: the main thread hashes the parsed body itself.
    }
    parentPort.postMessage({ type: 'hash', id: message.id, hash });
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
