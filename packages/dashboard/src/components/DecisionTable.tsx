import { type ReactNode, useEffect, useState } from 'react';
import type { DecisionSummary } from '../api/types.ts';
import { networkOf } from '../lib/entities.ts';
import { formatDateTime, formatNumber } from '../lib/format.ts';
import { href } from '../lib/router.ts';
import { EffectiveLabel } from './EffectiveLabel.tsx';
import { EntityLink } from './EntitySummary.tsx';
import { Link } from './Link.tsx';
import { Pill } from './Pill.tsx';
import { Table } from './Table.tsx';

/** The decisions table: every entity a pivot link; on a phone, score and action first. */
type Cell = { label: string; numeric?: boolean; render: (d: DecisionSummary) => ReactNode };

const CELLS: Record<string, Cell> = {
  time: {
    label: 'Time',
    render: (d) => <Link href={href('decisions', d.id)}>{formatDateTime(d.createdAt)}</Link>,
  },
  event: { label: 'Event', render: (d) => d.eventType.replace(/_/g, ' ') },
  account: {
    label: 'Account',
    render: (d) => (
      <div className="entity-cell truncate" title={d.email ? `${d.accountId} · ${d.email}` : d.accountId}>
        <EntityLink kind="accountId" value={d.accountId} />
        {d.email ? (
          <span className="sub">
            <EntityLink kind="email" value={d.email} />
          </span>
        ) : null}
      </div>
    ),
  },
  ip: {
    label: 'IP',
    render: (d) => {
      const network = networkOf(d.ipAddress);
      return (
        <div className="entity-cell mono">
          <EntityLink kind="ip" value={d.ipAddress} />
          {network?.endsWith('/24') ? (
            <span className="sub">
              <EntityLink kind="ipPrefix" value={network} />
            </span>
          ) : null}
        </div>
      );
    },
  },
  links: {
    label: 'Links',
    render: (d) => (
      <div className="entity-tags">
        {d.deviceId ? <EntityLink kind="deviceId" value={d.deviceId} label="device" /> : null}
        {d.paymentHash ? <EntityLink kind="paymentHash" value={d.paymentHash} label="card" /> : null}
        {d.promoCode ? (
          <EntityLink kind="promoCode" value={d.promoCode} label={`promo ${d.promoCode}`} />
        ) : null}
        {d.clusterId ? <EntityLink kind="clusterId" value={d.clusterId} label="cluster" /> : null}
      </div>
    ),
  },
  signals: {
    label: 'Top signals',
    render: (d) => {
      const top = topSignals(d.signals);
      return top.length ? (
        <span className="truncate signals-cell" title={top.join(', ')}>
          {top.slice(0, 2).join(', ')}
          {top.length > 2 ? ` +${top.length - 2}` : ''}
        </span>
      ) : (
        <span className="muted">–</span>
      );
    },
  },
  score: { label: 'Score', numeric: true, render: (d) => formatNumber(d.riskScore) },
  classification: { label: 'Classification', render: (d) => <Pill value={d.classification} /> },
  action: { label: 'Action', render: (d) => <Pill value={d.action} /> },
  label: { label: 'Label', render: (d) => <EffectiveLabel d={d} /> },
};

const WIDE = [
  'time',
  'event',
  'account',
  'ip',
  'links',
  'signals',
  'score',
  'classification',
  'action',
  'label',
];
/** On a phone the verdict comes first: score and action, then what to pivot on. */
const NARROW = [
  'score',
  'action',
  'signals',
  'time',
  'account',
  'ip',
  'event',
  'classification',
  'label',
  'links',
];

/** The names of the signals that added to the score, highest first (same-name signals summed). */
export function topSignals(signals: DecisionSummary['signals']): string[] {
  const sums = new Map<string, number>();
  for (const s of signals) sums.set(s.rule, (sums.get(s.rule) ?? 0) + s.score);
  return [...sums]
    .filter(([, score]) => score > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([rule]) => rule);
}

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia('(max-width: 760px)').matches);
  useEffect(() => {
    const media = window.matchMedia('(max-width: 760px)');
    const update = () => setNarrow(media.matches);
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, []);
  return narrow;
}

export function DecisionTable({ items, fresh }: { items: DecisionSummary[]; fresh?: ReadonlySet<string> }) {
  const order = useNarrow() ? NARROW : WIDE;
  const cells = order.map((key) => ({ key, ...(CELLS[key] as Cell) }));
  return (
    <Table
      className="decisions-table"
      columns={cells.map((c) => (c.numeric ? { label: c.label, numeric: true as const } : c.label))}
    >
      {items.map((d) => (
        <tr key={d.id} className={fresh?.has(d.id) ? 'fresh' : undefined} data-decision-id={d.id}>
          {cells.map((c) => (
            <td key={c.key} className={c.numeric ? 'num' : undefined} data-col={c.key}>
              {c.render(d)}
            </td>
          ))}
        </tr>
      ))}
    </Table>
  );
}
