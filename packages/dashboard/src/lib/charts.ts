/** Pure chart math for the SVG charts (no chart library). */

/** The smallest 1/2/5×10^k at or above `n` (at least 1): a readable axis maximum. */
export function niceMax(n: number): number {
  if (!Number.isFinite(n) || n <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * power >= n) return step * power;
  return 10 * power;
}

/** Evenly spaced ticks 0..max (max from niceMax), at most `count` + 1 of them, integers only. */
export function ticks(max: number, count = 4): number[] {
  const step = Math.max(1, Math.ceil(max / count));
  const out: number[] = [];
  for (let v = 0; v <= max; v += step) out.push(v);
  return out;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export interface Bucket {
  start: number;
  values: Record<string, number>;
  total: number;
}

/**
 * Hourly counts (hours without decisions left out by the API) → one bucket per hour from `from`
 * to `to`, zeros filled in; windows over 72 hours are summed per day (UTC) to keep bars readable.
 */
export function bucketize(
  hourly: ReadonlyArray<{ hour: string } & Record<string, number | string>>,
  keys: readonly string[],
  from: number,
  to: number,
): { size: number; buckets: Bucket[] } {
  const size = to - from > 72 * HOUR_MS ? DAY_MS : HOUR_MS;
  const first = Math.floor(from / size) * size;
  const buckets: Bucket[] = [];
  const index = new Map<number, Bucket>();
  for (let start = first; start < to; start += size) {
    const bucket = { start, values: Object.fromEntries(keys.map((k) => [k, 0])), total: 0 };
    buckets.push(bucket);
    index.set(start, bucket);
  }
  for (const row of hourly) {
    const at = Date.parse(row.hour);
    const bucket = index.get(Math.floor(at / size) * size);
    if (!bucket) continue;
    for (const k of keys) {
      const v = Number(row[k] ?? 0);
      bucket.values[k] = (bucket.values[k] ?? 0) + v;
      bucket.total += v;
    }
  }
  return { size, buckets };
}

/** Stacked segments of one column: `[{key, y0, y1}]` bottom-up, in data units. */
export function stack(values: Record<string, number>, keys: readonly string[]) {
  let y = 0;
  return keys.map((key) => {
    const y0 = y;
    y += values[key] ?? 0;
    return { key, y0, y1: y };
  });
}
