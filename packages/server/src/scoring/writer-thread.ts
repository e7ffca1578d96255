import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PACKAGES_DIR } from '../paths.ts';
import type { BoundWrite, CommitResult, CommitStatements } from './decision-commit.mjs';

const WRITER_THREAD = path.join(PACKAGES_DIR, 'server/src/scoring/decision-writer.worker.mjs');

/** Commits bound writes somewhere (the thread, or this thread when it cannot). */
export type BoundCommitter = (writes: BoundWrite[]) => Promise<CommitResult>;

/**
 * The decision writer thread (decision-writer.worker.mjs), and the commits and body hashes it has
 * not answered yet. Should the thread fail (it could not open the file, say), its unanswered
 * commits and every later one run on `fallback` instead, and body hashes answer null (the caller
 * hashes the parsed body).
 */
export class WriterThread {
  private failed = false;
  private closing = false;
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { writes: BoundWrite[]; resolve(r: CommitResult): void; reject(e: Error): void }
  >();
  private readonly hashing = new Map<number, (hash: string | null) => void>();
  private nextId = 0;
  private announceReady: () => void = () => undefined;
  /** Settles once the thread has opened the file, or has failed (its commits then run here). */
  readonly ready = new Promise<void>((resolve) => {
    this.announceReady = resolve;
  });

  constructor(
    file: string,
    sql: CommitStatements,
    private readonly fallback: BoundCommitter,
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
      else if (answer.type === 'hash') this.settleHash(answer);
      else this.settle(answer);
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`it exited with code ${code}`)));
  }

  commit(writes: BoundWrite[]): Promise<CommitResult> {
    if (this.failed) return this.fallback(writes);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.holdOpen();
      this.pending.set(id, { writes, resolve, reject });
      this.worker.postMessage({ type: 'commit', id, writes });
    });
  }

  /** canonicalTextHash(text) from the thread; null once it has failed. */
  bodyHash(text: string): Promise<string | null> {
    if (this.failed) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.holdOpen();
      this.hashing.set(id, resolve);
      this.worker.postMessage({ type: 'hash', id, text });
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
    if (this.pending.size === 0 && this.hashing.size === 0) this.worker.ref();
  }

  private letGo(): void {
    if (this.pending.size === 0 && this.hashing.size === 0) this.worker.unref();
  }

  private settle(answer: CommitAnswer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    this.letGo();
    if ('error' in answer) waiting.reject(Object.assign(new Error(answer.error), { code: answer.code }));
    else waiting.resolve(answer);
  }

  private settleHash(answer: HashAnswer): void {
    const resolve = this.hashing.get(answer.id);
    if (!resolve) return;
    this.hashing.delete(answer.id);
    this.letGo();
    resolve(answer.hash);
  }

  private fail(err: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.announceReady();
    if (!this.closing)
      process.emitWarning(`decision writer thread stopped (${err.message}); commits run on the main thread`);
    for (const { writes, resolve, reject } of this.pending.values())
      this.fallback(writes).then(resolve, reject);
    this.pending.clear();
    for (const resolve of this.hashing.values()) resolve(null);
    this.hashing.clear();
  }
}

type CommitAnswer = { type: 'commit'; id: number } & (CommitResult | { error: string; code?: string });
/** null: the text did not parse there (it always does: this thread parsed it first). */
type HashAnswer = { type: 'hash'; id: number; hash: string | null };
type ThreadAnswer = CommitAnswer | HashAnswer;
