import type { WorkerEvidence } from '../types.ts';

export interface ProbeResult {
  worker: WorkerEvidence;
}

/** Messages between the SDK and its worker. */
export type ToWorker =
  | {
      type: 'solve';
      id: number;
      salt: string;
      challenge: string;
      start: number;
      end: number;
      /** Force the pure-JS searcher (benchmarks). */
      engine?: 'js';
    }
  | { type: 'probe' };

export type FromWorker =
  | { type: 'ready'; engine: 'wasm' | 'js' }
  | { type: 'result'; id: number; found: number; tried: number; engine: 'wasm' | 'js' }
  | { type: 'probe'; data: ProbeResult };
