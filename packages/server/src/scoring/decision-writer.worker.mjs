// The decision writer thread: its own connection to the SQLite file, running the group commits the
// main thread sends (decision-writer.ts), so inserts, index updates and WAL checkpoints run on the
// second core while the main thread goes on scoring. A commit is answered only once it is durable.
import { writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from '../storage/sqlite-connection.mjs';
import { decisionCommit } from './decision-commit.mjs';

// Named for `top -H` and the benchmark's CPU per thread (bench/lib/proc-stat.ts); Linux only.
try {
  writeFileSync('/proc/thread-self/comm', 'warden-writer');
} catch {
  // Another system: the thread keeps its name.
}

const sqlite = openSqlite(workerData.file);
const commit = decisionCommit(sqlite, workerData.sql);

// Messages: {type: 'commit', id, writes}, {type: 'close'}.
parentPort.on('message', (message) => {
  if (message.type === 'close') {
    sqlite.close();
    parentPort.close();
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
