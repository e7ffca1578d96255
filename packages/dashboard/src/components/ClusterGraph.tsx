import type { Cluster } from '../api/types.ts';
import { useWidth } from '../hooks/useWidth.ts';
import { clusterLayout, type LinkKind, NARROW_GRAPH, shortLabel, WIDE_GRAPH } from '../lib/cluster-graph.ts';
import { pivotHref } from '../lib/entities.ts';

const KIND_LABEL: Record<LinkKind, string> = { device: 'device', ip: 'IP', payment: 'card' };
const KIND_FILTER = { device: 'deviceId', ip: 'ip', payment: 'paymentHash' } as const;

/**
 * Accounts (left; colour = label, number = latest score) and the devices, IPs and payment hashes
 * that link them (right), as plain SVG. Every node is a link to its decisions; a dashed line is an
 * IP used by more than 3 accounts (it linked only its first 3).
 */
export function ClusterGraph({ cluster }: { cluster: Pick<Cluster, 'members' | 'links'> }) {
  // A phone gets the narrow layout (shorter labels) instead of half a wide one.
  const [ref, width] = useWidth<HTMLDivElement>(WIDE_GRAPH.width);
  const layout = clusterLayout(cluster, width < 560 ? NARROW_GRAPH : WIDE_GRAPH);
  const { accountChars, valueChars } = layout.geometry;
  return (
    <div className="cluster-graph" ref={ref}>
      <svg
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        width="100%"
        role="img"
        aria-labelledby="cluster-graph-title"
        data-testid="cluster-graph"
      >
        <title id="cluster-graph-title">
          {`${layout.accounts.length} accounts linked by ${layout.values.length} devices, IP addresses and payment hashes`}
        </title>
        <g className="edges">
          {layout.edges.map((e) => (
            <line
              key={`${e.account}|${e.kind}|${e.value}`}
              x1={e.x1}
              y1={e.y1}
              x2={e.x2}
              y2={e.y2}
              className={`edge edge-${e.kind}${e.crowded ? ' edge-crowded' : ''}`}
              data-edge={`${e.account}|${e.kind}:${e.value}`}
            />
          ))}
        </g>
        {layout.accounts.map((a) => (
          <a key={a.id} href={pivotHref('accountId', a.id)} className="node node-account" data-account={a.id}>
            <title>{`account ${a.id}${a.score === null ? '' : `, latest score ${a.score}`}${a.label ? `, ${a.label}` : ''}`}</title>
            <circle cx={a.x} cy={a.y} r={12} className={`account-dot label-${a.label ?? 'none'}`} />
            <text x={a.x} y={a.y + 4} textAnchor="middle" className="node-score">
              {a.score ?? '–'}
            </text>
            <text x={a.x - 20} y={a.y + 4} textAnchor="end" className="node-label">
              {shortLabel(a.id, accountChars)}
            </text>
          </a>
        ))}
        {layout.values.map((v) => (
          <a
            key={v.key}
            href={pivotHref(KIND_FILTER[v.kind], v.value)}
            className={`node node-${v.kind}`}
            data-value={v.key}
          >
            <title>{`${KIND_LABEL[v.kind]} ${v.value}${v.crowded ? ' (crowded: linked only its first 3 accounts)' : ''}`}</title>
            <rect
              x={v.x - 9}
              y={v.y - 9}
              width={18}
              height={18}
              rx={v.kind === 'ip' ? 9 : 3}
              className={`value-box value-${v.kind}`}
            />
            <text x={v.x + 18} y={v.y + 4} className="node-label">
              {KIND_LABEL[v.kind]} {shortLabel(v.value, valueChars)}
            </text>
          </a>
        ))}
      </svg>
      <p className="graph-legend muted">
        <span className="graph-key graph-key-fraud">fraud</span>{' '}
        <span className="graph-key graph-key-legit">legit</span>{' '}
        <span className="graph-key graph-key-none">unlabelled</span> · number: latest score · dashed: crowded
        IP
      </p>
    </div>
  );
}
