import type { ChallengeDescriptor, Solution, SolveOptions } from '../types.ts';
import type { FromWorker, ProbeResult, ToWorker } from '../worker/protocol.ts';
import { solveOnMainThread } from './main-thread.ts';

const CHUNK = 1 << 16;

/** Pool size from the device: one worker per core but one, fewer on low-memory devices. */
export function defaultPoolSize(): number {
  const cores = navigator.hardwareConcurrency || 2;
  const memory = (navigator as { deviceMemory?: number }).deviceMemory ?? 4;
  const byCores = cores > 2 ? cores - 1 : cores;
  return Math.max(1, Math.min(8, byCores, memory <= 1 ? 1 : memory <= 2 ? 2 : 8));
}

function abortError(): Error {
  return new DOMException('Solving aborted', 'AbortError');
}

/** Web Workers running the WASM (or JS) solver; chunks of the range are handed out on demand. */
export class SolverPool {
  private readonly workers: Worker[] = [];
  private engine: 'wasm' | 'js' = 'js';
  private seq = 0;
  private url: Promise<string | undefined> | undefined;

  constructor(private readonly scriptUrl: string) {}

  private workerUrl(): Promise<string | undefined> {
    this.url ??= (async () => {
      if (new URL(this.scriptUrl, location.href).origin === location.origin) return this.scriptUrl;
      // Cross-origin worker scripts are not allowed: load the code and start it from a blob URL.
      const res = await fetch(this.scriptUrl, { credentials: 'omit' });
      if (!res.ok) return undefined;
      return URL.createObjectURL(new Blob([await res.text()], { type: 'text/javascript' }));
    })().catch(() => undefined);
    return this.url;
  }

  /** Starts up to `count` workers; resolves to the ones running (none when workers are blocked). */
  async ensure(count: number): Promise<Worker[]> {
    const url = await this.workerUrl();
    if (!url) return [];
    while (this.workers.length < count) {
      try {
        const worker = new Worker(url);
        worker.addEventListener('message', (e: MessageEvent<FromWorker>) => {
          if (e.data.type === 'ready') this.engine = e.data.engine;
        });
        this.workers.push(worker);
      } catch {
        break;
      }
    }
    return this.workers.slice(0, count);
  }

  /** Asks one worker for its view of the environment. */
  async probe(): Promise<ProbeResult | undefined> {
    const [worker] = await this.ensure(1);
    if (!worker) return undefined;
    return new Promise((resolve) => {
      const onMessage = (e: MessageEvent<FromWorker>) => {
        if (e.data.type !== 'probe') return;
        worker.removeEventListener('message', onMessage);
        resolve(e.data.data);
      };
      worker.addEventListener('message', onMessage);
      worker.postMessage({ type: 'probe' } satisfies ToWorker);
    });
  }

  async solve(d: ChallengeDescriptor, options: SolveOptions = {}): Promise<Solution> {
    const { signal, onProgress } = options;
    if (signal?.aborted) throw abortError();
    const workers = await this.ensure(options.workers ?? defaultPoolSize());
    if (workers.length === 0) return solveOnMainThread(d, options);
    const id = ++this.seq;
    // Enough chunks for every worker to stay busy, small enough for quick progress and cancel.
    const chunk = Math.max(4096, Math.min(CHUNK, Math.ceil((d.maxnumber + 1) / (workers.length * 8))));
    const started = performance.now();
    let next = 0;
    let hashes = 0;
    let busy = 0;
    return new Promise<Solution>((resolve, reject) => {
      const finish = (error: Error | undefined, nonce?: number) => {
        for (const w of workers) w.removeEventListener('message', onMessage);
        signal?.removeEventListener('abort', onAbort);
        if (error || nonce === undefined) reject(error ?? new Error('No solution in range'));
        else
          resolve({
            challenge_id: d.challenge_id,
            nonce,
            took_ms: Math.round(performance.now() - started),
            hashes,
            workers: workers.length,
            engine: this.engine,
          });
      };
      const dispatch = (w: Worker) => {
        if (next > d.maxnumber) {
          if (busy === 0) finish(new Error('No solution in range'));
          return;
        }
        const start = next;
        const end = Math.min(d.maxnumber, start + chunk - 1);
        next = end + 1;
        busy++;
        w.postMessage({
          type: 'solve',
          id,
          salt: d.salt,
          challenge: d.challenge,
          start,
          end,
        } satisfies ToWorker);
      };
      const onMessage = (e: MessageEvent<FromWorker>) => {
        const msg = e.data;
        if (msg.type !== 'result' || msg.id !== id) return;
        busy--;
        hashes += msg.tried;
        this.engine = msg.engine;
        const seconds = (performance.now() - started) / 1000;
        onProgress?.({
          hashes,
          expected: Math.ceil(d.maxnumber / 2),
          hashes_per_second: Math.round(hashes / Math.max(seconds, 0.001)),
        });
        if (msg.found >= 0) finish(undefined, msg.found);
        else dispatch(e.target as Worker);
      };
      const onAbort = () => finish(abortError());
      signal?.addEventListener('abort', onAbort);
      for (const w of workers) {
        w.addEventListener('message', onMessage);
        dispatch(w);
      }
    });
  }

  terminate(): void {
    for (const w of this.workers.splice(0)) w.terminate();
  }
}
