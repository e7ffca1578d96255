/** Wilson score interval (95 %) of `hits` in `n`, as fractions; [0, 1] when n is 0. */
export function wilson(hits: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = hits / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** `hits/n  share %  [low–high %]`. */
export function share(hits: number, n: number): string {
  const [lo, hi] = wilson(hits, n);
  const pct = (v: number) => (100 * v).toFixed(1);
  return `${String(hits).padStart(4)}/${String(n).padEnd(4)} ${pct(n ? hits / n : 0).padStart(5)} %  [${pct(lo)}–${pct(hi)} %]`;
}
