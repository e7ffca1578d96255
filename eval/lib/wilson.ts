/**
 * The Wilson score interval of a proportion `hits / n` at 95 % (z = 1.96): honest bounds for
 * small counts and rates near 0, where the normal approximation gives negative lower bounds.
 */
export function wilson(hits: number, n: number, z = 1.96): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 1 };
  const p = hits / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const denom = 1 + z2 / n;
  return { low: Math.max(0, (centre - spread) / denom), high: Math.min(1, (centre + spread) / denom) };
}

/** "3/180 1.7 % [0.6–4.8]": count, rate and its Wilson 95 % interval. */
export function formatRate(hits: number, n: number): string {
  const { low, high } = wilson(hits, n);
  const pct = (v: number) => (100 * v).toFixed(1);
  return `${hits}/${n} ${pct(n === 0 ? 0 : hits / n)} % [${pct(low)}–${pct(high)}]`;
}
