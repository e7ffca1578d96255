/** A small inline line chart of live (solid) and shadow (dashed) counts per bucket, oldest first. */
export function Sparkline({
  series,
  label,
  width = 96,
  height = 24,
}: {
  series: ReadonlyArray<{ live: number; shadow: number }>;
  label: string;
  width?: number;
  height?: number;
}) {
  const max = Math.max(1, ...series.flatMap((p) => [p.live, p.shadow]));
  const step = series.length > 1 ? width / (series.length - 1) : 0;
  const points = (key: 'live' | 'shadow') =>
    series
      .map((p, i) => `${(i * step).toFixed(1)},${(height - 1 - (p[key] / max) * (height - 2)).toFixed(1)}`)
      .join(' ');
  const hasShadow = series.some((p) => p.shadow > 0);
  const hasLive = series.some((p) => p.live > 0) || !hasShadow;
  return (
    <svg
      className="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
    >
      {hasLive ? <polyline className="live" points={points('live')} /> : null}
      {hasShadow ? <polyline className="shadow" points={points('shadow')} /> : null}
    </svg>
  );
}
