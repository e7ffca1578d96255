/**
 * A bounded sample buffer. When full, the oldest half is decimated 2:1 (every other sample kept),
 * so the whole session stays represented at decreasing resolution instead of only its end.
 */
export class SampleBuffer<T> {
  readonly items: T[] = [];
  constructor(readonly capacity: number) {}

  push(item: T): void {
    if (this.items.length >= this.capacity) this.decimate();
    this.items.push(item);
  }

  private decimate(): void {
    const half = this.items.length >> 1;
    const kept: T[] = [];
    for (let i = 0; i < half; i += 2) kept.push(this.items[i]!);
    this.items.splice(0, half, ...kept);
  }

  get last(): T | undefined {
    return this.items[this.items.length - 1];
  }
}

/** Elements counted the way the service counts them: every element of every array, at any depth. */
export function countElements(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + 1 + countElements(v), 0);
  if (value && typeof value === 'object') {
    let n = 0;
    for (const v of Object.values(value)) n += countElements(v);
    return n;
  }
  return 0;
}

/** Per-array sample capacities; with each tuple costing 1 + its length, they add up to 2,048. */
export const CAPACITY = {
  mouse: 256, // 256 × 4 = 1024
  click: 64, // 64 × 5 = 320
  key: 128, // 128 × 3 = 384
  scroll: 64, // 64 × 3 = 192
  touch: 32, // 32 × 4 = 128
} as const;
