// The WAL checkpointer thread (wal-checkpointer.ts): its own connection to the SQLite file, copying
// the WAL's committed pages into the database file on a timer, so that no commit of the decision
// writer thread (nor any statement of the main thread) ever runs a checkpoint: a checkpoint copies
// and fsyncs many pages, and a commit that ran one answered its whole batch that much later.
// PASSIVE checkpoints never wait for, nor block, the other connections; one that finishes while no
// transaction is open lets the next writer restart the WAL from its beginning (a bounded file);
// should commits never leave it that moment, a short RESTART checkpoint makes one.
import { writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite, SQLITE_CACHE_KB } from './sqlite-connection.mjs';

try {
  writeFileSync('/proc/thread-self/comm', 'warden-checkpt');
} catch {
  // Another system: the thread keeps its name.
}

/** Passes in one round at most: each copies what was committed during the last, usually far less. */
const MAX_PASSES = 4;
/**
 * WAL frames (~16 MB) past which a round that could not catch up while commits went on ends with a
 * RESTART checkpoint: it holds new commits back only while it copies the last few pages (the passes
 * copied the rest), then the next commit starts the WAL from its beginning.
 */
const RESTART_FRAMES = 4096;
const RESTART_WAIT_MS = 20;

const sqlite = openSqlite(workerData.file, SQLITE_CACHE_KB.checkpointer);
// A RESTART checkpoint holds new commits back while it waits for the other connections' open
// transactions: it gives up after this long (and the next round tries again) instead of 5 s.
sqlite.pragma(`busy_timeout = ${RESTART_WAIT_MS}`);
let timer;

/** The WAL's frames, and how many of them were in the database, after the last pass. */
let last = { log: -1, checkpointed: -1 };

/**
 * Checkpoint until the WAL is all in the database (or MAX_PASSES); report how long the round took
 * when it had anything to copy (a WAL unchanged since the last round costs one look).
 */
function round() {
  const started = performance.now();
  let lastPassAt = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    lastPassAt = performance.timeOrigin + performance.now();
    const [{ log, checkpointed }] = sqlite.pragma('wal_checkpoint(PASSIVE)');
    const unchanged = log === last.log && checkpointed === last.checkpointed;
    last = { log, checkpointed };
    if (pass === 0 && unchanged) return;
    if (log === checkpointed) break;
  }
  if (last.log !== last.checkpointed && last.log >= RESTART_FRAMES) {
    lastPassAt = performance.timeOrigin + performance.now();
    const [{ log, checkpointed }] = sqlite.pragma('wal_checkpoint(RESTART)');
    last = { log, checkpointed };
  }
  parentPort.postMessage({
    type: 'checkpoint',
    lastPassAt,
    ms: performance.now() - started,
    complete: last.log === last.checkpointed,
  });
}

function schedule() {
  timer = setTimeout(() => {
    try {
      round();
    } catch (err) {
      parentPort.postMessage({ type: 'error', error: err instanceof Error ? err.message : String(err) });
    }
    schedule();
  }, workerData.intervalMs);
}

parentPort.on('message', (message) => {
  if (message.type !== 'close') return;
  clearTimeout(timer);
  sqlite.close();
  parentPort.close();
});
schedule();
