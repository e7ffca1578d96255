import { incrementDigits, type SearchPlan } from './plan.ts';
import { rounds } from './sha256.ts';

/** Walks a plan's range in slices; `step` returns the solution, or -1 when this slice has none. */
export interface Searcher {
  readonly kind: 'wasm' | 'js';
  /** Starts a new range (the plan's tail holds the digits of plan.first). */
  reset(plan: SearchPlan): void;
  /** Tries up to `count` values; returns the solution or -1. `done` tells whether the range is exhausted. */
  step(count: number): number;
  readonly done: boolean;
  /** Next value to try. */
  readonly next: number;
}

/** Pure-JS searcher with the same midstate and skipped rounds as the WASM one. */
export class JsSearcher implements Searcher {
  readonly kind = 'js';
  private plan: SearchPlan | undefined;
  private current = 0;
  private readonly state = new Int32Array(8);
  private readonly h = new Int32Array(8);

  get done(): boolean {
    return !this.plan || this.current > this.plan.last;
  }

  get next(): number {
    return this.current;
  }

  reset(plan: SearchPlan): void {
    this.plan = { ...plan, tail: plan.tail.slice() };
    this.current = plan.first;
  }

  step(count: number): number {
    const plan = this.plan;
    if (!plan) return -1;
    const { tail, pre, midstate, target, entry, digitOffset, digits } = plan;
    const { state, h } = this;
    const two = tail.length === 32;
    const end = Math.min(plan.last, this.current + count - 1);
    for (let n = this.current; n <= end; n++) {
      state.set(pre);
      rounds(state, tail, 0, entry, 64);
      for (let i = 0; i < 8; i++) h[i] = (midstate[i]! + state[i]!) | 0;
      if (two) {
        state.set(h);
        rounds(state, tail, 16, 0, 64);
        for (let i = 0; i < 8; i++) h[i] = (h[i]! + state[i]!) | 0;
      }
      if (h[0] === target[0] && h.every((v, i) => v === target[i])) {
        this.current = end + 1;
        return n;
      }
      if (n < plan.last) incrementDigits(tail, digitOffset, digits);
    }
    this.current = end + 1;
    return -1;
  }
}
