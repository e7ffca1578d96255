import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PACKAGES_DIR } from '../paths.ts';

const CHECKPOINTER_THREAD = path.join(PACKAGES_DIR, 'server/src/storage/wal-checkpointer.worker.mjs');

/**
 * How often the checkpointer looks at the WAL. At full speed a quarter second of commits is a few
 * thousand pages: copied in a few milliseconds on another thread, and the WAL file stays at that
 * size (it restarts from its beginning after a round that caught up).
 */
export const CHECKPOINT_INTERVAL_MS = 250;

/**
 * One checkpoint round: how long it took, whether it left the whole WAL in the database, and when
 * its last pass started (ms since the epoch, fractional): a complete round copied every commit
 * made before then.
 */
export interface CheckpointRound {
  lastPassAt: number;
  seconds: number;
  complete: boolean;
}

/**
 * The WAL checkpointer thread of a SQLite file (wal-checkpointer.worker.mjs). Every connection of
 * the file leaves checkpoints to it (sqlite-connection.mjs: `wal_autocheckpoint` only as a
 * backstop), so no commit waits for one. Should the thread stop, the backstop still bounds the WAL.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<unknown>;

  constructor(
    file: string,
    report: (round: CheckpointRound) => void,
    warn: (message: string) => void,
    intervalMs = CHECKPOINT_INTERVAL_MS,
  ) {
    this.worker = new Worker(CHECKPOINTER_THREAD, {
      workerData: { file, intervalMs },
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 },
    });
    // Never keeps the process alive by itself.
    this.worker.unref();
    this.exited = new Promise((resolve) => this.worker.once('exit', resolve));
    type Message = { type: 'checkpoint'; lastPassAt: number; ms: number; complete: boolean };
    this.worker.on('message', (m: Message | { type: 'error'; error: string }) => {
      if (m.type === 'checkpoint')
        report({ lastPassAt: m.lastPassAt, seconds: m.ms / 1000, complete: m.complete });
      else warn(`WAL checkpoint failed: ${m.error}`);
    });
    this.worker.on('error', (err) => warn(`WAL checkpointer thread stopped: ${err.message}`));
  }

  async close(): Promise<void> {
    this.worker.postMessage({ type: 'close' });
    await this.exited;
  }
}
