import type { SearchPlan } from './plan.ts';
import type { Searcher } from './searcher.ts';
import { MEM } from './wasm-gen.ts';

interface Exports {
  memory: WebAssembly.Memory;
  search(count: number, entry: number, two: number, digitStart: number, digitEnd: number): number;
}

/** The WASM searcher: compiled from the bytes `buildSha256Wasm` emits. */
export class WasmSearcher implements Searcher {
  readonly kind = 'wasm';
  private plan: SearchPlan | undefined;
  private current = 0;

  private constructor(private readonly exports: Exports) {}

  static async create(bytes: Uint8Array): Promise<WasmSearcher> {
    const module = await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
    const instance = await WebAssembly.instantiate(module);
    return new WasmSearcher(instance.exports as unknown as Exports);
  }

  static createSync(bytes: Uint8Array): WasmSearcher {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>));
    return new WasmSearcher(instance.exports as unknown as Exports);
  }

  get done(): boolean {
    return !this.plan || this.current > this.plan.last;
  }

  get next(): number {
    return this.current;
  }

  reset(plan: SearchPlan): void {
    this.plan = plan;
    this.current = plan.first;
    const mem = new Int32Array(this.exports.memory.buffer);
    mem.set(plan.midstate, MEM.mid >> 2);
    for (let r = 0; r < 8; r++) mem[(MEM.pre >> 2) + ((r - plan.entry + 8) & 7)] = plan.pre[r]!;
    mem.fill(0, MEM.tail >> 2, (MEM.tail >> 2) + 32);
    mem.set(plan.tail, MEM.tail >> 2);
    mem.set(plan.target, MEM.target >> 2);
  }

  step(count: number): number {
    const plan = this.plan;
    if (!plan || this.current > plan.last) return -1;
    const n = Math.min(count, plan.last - this.current + 1);
    const found = this.exports.search(
      n,
      plan.entry,
      plan.tail.length === 32 ? 1 : 0,
      plan.digitOffset,
      plan.digitOffset + plan.digits,
    );
    const start = this.current;
    this.current += n;
    return found >= 0 ? start + found : -1;
  }
}
