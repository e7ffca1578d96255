import type { ChallengeDescriptor, Solution, SolveOptions } from '../types.ts';
import { JsSearcher } from './searcher.ts';
import { searchRange } from './solve-sync.ts';

const CHUNK = 1 << 14;

/** Last resort when workers are blocked (CSP): the JS solver in slices, yielding to the page. */
export async function solveOnMainThread(d: ChallengeDescriptor, options: SolveOptions): Promise<Solution> {
  const searcher = new JsSearcher();
  const started = performance.now();
  let hashes = 0;
  for (let start = 0; start <= d.maxnumber; start += CHUNK) {
    if (options.signal?.aborted) throw new DOMException('Solving aborted', 'AbortError');
    const end = Math.min(d.maxnumber, start + CHUNK - 1);
    const found = searchRange(searcher, d.salt, d.challenge, start, end, CHUNK);
    hashes += found >= 0 ? found - start + 1 : end - start + 1;
    if (found >= 0) {
      return {
        challenge_id: d.challenge_id,
        nonce: found,
        took_ms: Math.round(performance.now() - started),
        hashes,
        workers: 0,
        engine: 'main-thread',
      };
    }
    const seconds = (performance.now() - started) / 1000;
    options.onProgress?.({
      hashes,
      expected: Math.ceil(d.maxnumber / 2),
      hashes_per_second: Math.round(hashes / Math.max(seconds, 0.001)),
    });
    await new Promise((r) => setTimeout(r, 0));
  }
  throw new Error('No solution in range');
}
