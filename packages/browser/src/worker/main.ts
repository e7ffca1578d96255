/// <reference lib="webworker" />
import { JsSearcher, type Searcher } from '../pow/searcher.ts';
import { searchRange } from '../pow/solve-sync.ts';
import { WasmSearcher } from '../pow/wasm-searcher.ts';
import { workerProbe } from './probe.ts';
import type { FromWorker, ToWorker } from './protocol.ts';

/** The SHA-256 module, emitted by wasm-gen.ts at build time and injected by esbuild as base64. */
declare const __WARDEN_SHA256_WASM__: string;

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromWorker) => scope.postMessage(message);

async function createSearcher(): Promise<Searcher> {
  try {
    const bytes = Uint8Array.from(atob(__WARDEN_SHA256_WASM__), (c) => c.charCodeAt(0));
    return await WasmSearcher.create(bytes);
  } catch {
    return new JsSearcher();
  }
}

const searcher = createSearcher();
void searcher.then((s) => post({ type: 'ready', engine: s.kind }));

scope.onmessage = async (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type === 'probe') {
    post({ type: 'probe', data: workerProbe() });
    return;
  }
  const s = msg.engine === 'js' ? new JsSearcher() : await searcher;
  let tried = 0;
  const found = searchRange(s, msg.salt, msg.challenge, msg.start, msg.end, 1 << 14, (t) => {
    tried += t;
    return true;
  });
  if (found >= 0) tried = found - msg.start + 1;
  post({ type: 'result', id: msg.id, found, tried, engine: s.kind });
};
