import { useWidth } from '../hooks/useWidth.ts';
import { type Bucket, niceMax, stack, ticks } from '../lib/charts.ts';
import { formatNumber } from '../lib/format.ts';

/** Plain SVG charts. Colours come from CSS classes (`.series-human`, `.series-block`…). */

const H = 220;
const PAD = { top: 12, right: 28, bottom: 28, left: 44 };

/** Horizontal grid lines with their values, at the ticks of the y axis. */
function YGrid({ max, width, y }: { max: number; width: number; y: (v: number) => number }) {
  return ticks(max).map((t) => (
    <g key={t} className="grid">
      <line x1={PAD.left} x2={width - PAD.right} y1={y(t)} y2={y(t)} />
      <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end">
        {formatNumber(t)}
      </text>
    </g>
  ));
}

export function Legend({ keys }: { keys: readonly string[] }) {
  return (
    <ul className="legend">
      {keys.map((k) => (
        <li key={k}>
          <span className={`swatch series-${k}`} aria-hidden="true" />
          {k.replace(/_/g, ' ')}
        </li>
      ))}
    </ul>
  );
}

/** Stacked columns over time (one column per bucket). */
export function StackedColumns({
  buckets,
  keys,
  label,
  tickLabel,
}: {
  buckets: readonly Bucket[];
  keys: readonly string[];
  label: string;
  tickLabel: (start: number) => string;
}) {
  const [ref, W] = useWidth<HTMLElement>();
  const max = niceMax(Math.max(0, ...buckets.map((b) => b.total)));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = plotW / Math.max(1, buckets.length);
  const barW = Math.max(1, step * 0.8);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const labelEvery = Math.max(1, Math.ceil(buckets.length / Math.max(2, Math.floor(plotW / 70))));
  const total = buckets.reduce((a, b) => a + b.total, 0);
  return (
    <figure className="chart" ref={ref}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${label}: ${formatNumber(total)} in total`}>
        <YGrid max={max} width={W} y={y} />
        {buckets.map((b, i) => {
          const x = PAD.left + i * step + (step - barW) / 2;
          return (
            <g key={b.start}>
              {stack(b.values, keys).map((s) =>
                s.y1 > s.y0 ? (
                  <rect
                    key={s.key}
                    className={`series-${s.key}`}
                    x={x}
                    width={barW}
                    y={y(s.y1)}
                    height={y(s.y0) - y(s.y1)}
                  >
                    <title>{`${tickLabel(b.start)} · ${s.key}: ${formatNumber(s.y1 - s.y0)}`}</title>
                  </rect>
                ) : null,
              )}
              {i % labelEvery === 0 ? (
                <text className="axis-label" x={x + barW / 2} y={H - 8} textAnchor="middle">
                  {tickLabel(b.start)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <Legend keys={keys} />
    </figure>
  );
}

/** Horizontal bars with their counts, one per key (e.g. decisions by action). */
export function HBars({
  counts,
  keys,
  label,
}: {
  counts: Record<string, number>;
  keys: readonly string[];
  label: string;
}) {
  const max = Math.max(1, ...keys.map((k) => counts[k] ?? 0));
  return (
    <table className="hbars" aria-label={label}>
      <tbody>
        {keys.map((k) => {
          const v = counts[k] ?? 0;
          return (
            <tr key={k}>
              <th scope="row">{k.replace(/_/g, ' ')}</th>
              <td className="hbar-cell">
                <svg viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
                  <rect className={`series-${k}`} x="0" y="0" height="10" width={(v / max) * 100} />
                </svg>
              </td>
              <td className="num">{formatNumber(v)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Grouped columns: for every key, one column per series (e.g. before vs after a backtest). */
export function GroupedColumns({
  keys,
  series,
  label,
}: {
  keys: readonly string[];
  series: ReadonlyArray<{ name: string; className: string; counts: Record<string, number> }>;
  label: string;
}) {
  const [ref, W] = useWidth<HTMLElement>();
  const h = 200;
  const max = niceMax(Math.max(0, ...series.flatMap((s) => keys.map((k) => s.counts[k] ?? 0))));
  const plotW = W - PAD.left - PAD.right;
  const plotH = h - PAD.top - PAD.bottom;
  const group = plotW / Math.max(1, keys.length);
  const barW = (group * 0.7) / Math.max(1, series.length);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const summary = keys
    .map((k) => `${k}: ${series.map((s) => `${s.name} ${formatNumber(s.counts[k] ?? 0)}`).join(', ')}`)
    .join('; ');
  return (
    <figure className="chart" ref={ref}>
      <svg viewBox={`0 0 ${W} ${h}`} role="img" aria-label={`${label}. ${summary}`}>
        <YGrid max={max} width={W} y={y} />
        {keys.map((k, gi) => {
          const x0 = PAD.left + gi * group + group * 0.15;
          return (
            <g key={k}>
              {series.map((s, si) => {
                const v = s.counts[k] ?? 0;
                return (
                  <g key={s.name}>
                    <rect
                      className={s.className}
                      x={x0 + si * barW}
                      width={barW - 2}
                      y={y(v)}
                      height={y(0) - y(v)}
                    >
                      <title>{`${k} · ${s.name}: ${formatNumber(v)}`}</title>
                    </rect>
                    <text
                      className="bar-value"
                      x={x0 + si * barW + (barW - 2) / 2}
                      y={y(v) - 3}
                      textAnchor="middle"
                    >
                      {formatNumber(v)}
                    </text>
                  </g>
                );
              })}
              <text className="axis-label" x={x0 + (barW * series.length) / 2} y={h - 8} textAnchor="middle">
                {k}
              </text>
            </g>
          );
        })}
      </svg>
      <ul className="legend">
        {series.map((s) => (
          <li key={s.name}>
            <span className={`swatch ${s.className}`} aria-hidden="true" />
            {s.name}
          </li>
        ))}
      </ul>
    </figure>
  );
}
