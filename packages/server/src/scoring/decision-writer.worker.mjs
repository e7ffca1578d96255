// The decision writer thread: its own connection to the SQLite file, running the group commits the
// main thread sends (decision-writer.ts), so inserts, index updates and WAL checkpoints run on the
// second core while the main thread goes on scoring. A commit is answered only once it is durable.
// It also hashes request bodies for idempotency (canonical JSON of the raw text), which would
// otherwise cost the main thread a few per cent of each decision.
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from '../storage/sqlite-connection.mjs';
import { canonicalTextHash } from './canonical-json.mjs';
import { decisionCommit } from './decision-commit.mjs';

const sqlite = openSqlite(workerData.file);
const commit = decisionCommit(sqlite, workerData.sql);
// The connection is open and the statements prepared: the main thread may count on this thread.
parentPort.postMessage({ type: 'ready' });

// Messages: {type: 'commit', id, writes}, {type: 'hash', id, text}, {type: 'close'}.
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
  try {
    parentPort.postMessage({ type: 'commit', id: message.id, ...commit(message.writes) });
  } catch (err) {
    parentPort.postMessage({
      type: 'commit',
      id: message.id,
      error: err instanceof Error ? err.message : String(err),
      code: typeof err?.code === 'string' ? err.code : undefined,
    });
  }
});
