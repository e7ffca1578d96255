// The decision writer thread: its own connection to the SQLite file, running the group commits the
// main thread sends (decision-writer.ts), so inserts, index updates and WAL checkpoints run on the
// second core while the main thread goes on scoring. A commit is answered only once it is durable.
// It also runs the webhook dispatcher's writes (claims, results), so that the main thread never
// waits for the write lock.
//
// The main thread sends each turn's decisions at once, even while an earlier commit is under way:
// the batches that reach this thread while a transaction runs are taken together into the next one
// (a group commit that never waits for a timer nor for an answer to reach the main thread).
import { writeFileSync } from 'node:fs';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { openSqlite, SQLITE_CACHE_KB } from '../storage/sqlite-connection.mjs';
import { groupCommit } from './decision-commit.mjs';

// Named for `top -H` and the benchmark's CPU per thread (bench/lib/proc-stat.ts); Linux only.
try {
  writeFileSync('/proc/thread-self/comm', 'warden-writer');
} catch {
  // Another system: the thread keeps its name.
}

const sqlite = openSqlite(workerData.file, SQLITE_CACHE_KB.writer);
const commit = groupCommit(sqlite, workerData.sql);

/** Decisions past which a group commit takes no more batches (one transaction stays short). */
const GROUP_WRITES = 512;
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

/**
 * One group commit: `first` and the commit messages already waiting behind it (up to
 * GROUP_WRITES decisions), each answered with its result and the thread's view (`thread`: ms from
 * its sending, `sentAt`, to the transaction's start, the transaction's ms and how many batches it
 * took). Returns the first other message met, to be handled after it.
 */
function commitWaiting(first) {
  const batches = [first];
  let writes = first.writes.length;
  let other;
  while (writes < GROUP_WRITES) {
    const next = receiveMessageOnPort(parentPort);
    if (!next) break;
    if (next.message.type !== 'commit') {
      other = next.message;
      break;
    }
    batches.push(next.message);
    writes += next.message.writes.length;
  }
  const started = performance.now();
  const answers = commit(batches.map((b) => b.writes));
  const ms = performance.now() - started;
  const startedAt = performance.timeOrigin + started;
  for (const [i, batch] of batches.entries()) {
    const thread = { queuedMs: Math.max(0, startedAt - batch.sentAt), ms, batches: batches.length };
    parentPort.postMessage({ type: 'commit', id: batch.id, ...answers[i], thread });
  }
  return other;
}

// Messages: {type: 'commit', id, sentAt, writes}, {type: 'run', id, sql, parameters}, {type: 'close'}.
function handle(message) {
  if (message.type === 'close') {
    sqlite.close();
    parentPort.close();
    return;
  }
  if (message.type === 'commit') {
    const other = commitWaiting(message);
    if (other) handle(other);
    return;
  }
  try {
    const started = performance.now();
    const answer = run(message.sql, message.parameters);
    parentPort.postMessage({ type: 'run', id: message.id, ...answer, ms: performance.now() - started });
  } catch (err) {
    parentPort.postMessage({
      type: 'run',
      id: message.id,
      error: err instanceof Error ? err.message : String(err),
      code: typeof err?.code === 'string' ? err.code : undefined,
    });
  }
}
parentPort.on('message', handle);
