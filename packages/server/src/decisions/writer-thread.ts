import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PACKAGES_DIR } from '../paths.ts';
import type { BoundWrite, CommitResult, CommitStatements } from './decision-commit.mjs';

const WRITER_THREAD = path.join(PACKAGES_DIR, 'server/src/decisions/decision-writer.worker.mjs');

/** Commits bound writes somewhere (the thread, or this thread when it cannot). */
export type BoundCommitter = (writes: BoundWrite[]) => Promise<CommitResult>;

/** One statement's result as Kysely's SQLite driver gives it: rows, or the changes of a write. */
export interface StatementResult {
  rows: unknown[];
  changes?: number;
  lastInsertRowid?: number;
  /** How long it ran in the writer thread (when it ran there), in ms. */
  ms?: number;
}
/** Runs one SQL statement with its parameters somewhere (the thread, or this thread). */
export type StatementRunner = (sql: string, parameters: readonly unknown[]) => Promise<StatementResult>;

/**
 * The decision writer thread (decision-writer.worker.mjs), and the commits and statements it has
 * not answered yet. Should the thread fail (it could not open the file, say), its unanswered
 * commits and statements and every later one run on `fallback` instead.
 */
export class WriterThread {
  private failed = false;
  private closing = false;
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { writes: BoundWrite[]; resolve(r: CommitResult): void; reject(e: Error): void }
  >();
  private readonly running = new Map<
    number,
    { sql: string; parameters: readonly unknown[]; resolve(r: StatementResult): void; reject(e: Error): void }
  >();
  private nextId = 0;
  private announceReady: () => void = () => undefined;
  /** Settles once the thread has opened the file, or has failed (its commits then run here). */
  readonly ready = new Promise<void>((resolve) => {
    this.announceReady = resolve;
  });

  constructor(
    file: string,
    sql: CommitStatements,
    private readonly fallback: { commit: BoundCommitter; run: StatementRunner },
  ) {
    this.worker = new Worker(WRITER_THREAD, {
      workerData: { file, sql },
      // It holds no data between commits: a small heap keeps the process's memory down.
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
    });
    // Keeps the process alive only while it owes an answer (holdOpen).
    this.worker.unref();
    this.worker.on('message', (answer: ThreadAnswer | { type: 'ready' }) => {
      if (answer.type === 'ready') this.announceReady();
      else if (answer.type === 'run') this.settleRun(answer);
      else this.settle(answer);
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`it exited with code ${code}`)));
  }

  commit(writes: BoundWrite[]): Promise<CommitResult> {
    if (this.failed) return this.fallback.commit(writes);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.holdOpen();
      this.pending.set(id, { writes, resolve, reject });
      this.worker.postMessage({
        type: 'commit',
        id,
        sentAt: performance.timeOrigin + performance.now(),
        writes,
      });
    });
  }

  /**
   * Run one statement in the thread, between its group commits: a write there never makes this
   * thread wait for the SQLite write lock (the thread holds it for its commits).
   */
  run(sql: string, parameters: readonly unknown[]): Promise<StatementResult> {
    if (this.failed) return this.fallback.run(sql, parameters);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.holdOpen();
      this.running.set(id, { sql, parameters, resolve, reject });
      this.worker.postMessage({ type: 'run', id, sql, parameters });
    });
  }

  async close(): Promise<void> {
    if (this.failed) return;
    this.closing = true;
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.postMessage({ type: 'close' });
    await exited;
  }

  /** The process stays alive only while the thread owes an answer. */
  private holdOpen(): void {
    if (this.owed() === 0) this.worker.ref();
  }

  private letGo(): void {
    if (this.owed() === 0) this.worker.unref();
  }

  private owed(): number {
    return this.pending.size + this.running.size;
  }

  private settle(answer: CommitAnswer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    this.letGo();
    if ('error' in answer) waiting.reject(Object.assign(new Error(answer.error), { code: answer.code }));
    else waiting.resolve(answer);
  }

  private settleRun(answer: RunAnswer): void {
    const waiting = this.running.get(answer.id);
    if (!waiting) return;
    this.running.delete(answer.id);
    this.letGo();
    if ('error' in answer) waiting.reject(Object.assign(new Error(answer.error), { code: answer.code }));
    else waiting.resolve(answer);
  }

  private fail(err: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.announceReady();
    if (!this.closing)
      process.emitWarning(`decision writer thread stopped (${err.message}); commits run on the main thread`);
    for (const { writes, resolve, reject } of this.pending.values())
      this.fallback.commit(writes).then(resolve, reject);
    this.pending.clear();
    for (const { sql, parameters, resolve, reject } of this.running.values())
      this.fallback.run(sql, parameters).then(resolve, reject);
    this.running.clear();
  }
}

type CommitAnswer = { type: 'commit'; id: number } & (CommitResult | { error: string; code?: string });
type RunAnswer = { type: 'run'; id: number } & (StatementResult | { error: string; code?: string });
type ThreadAnswer = CommitAnswer | RunAnswer;
