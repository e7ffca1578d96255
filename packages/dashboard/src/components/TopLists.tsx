import type { TopEntry, TopValues } from '../api/types.ts';
import { change } from '../lib/compare.ts';
import { decisionsHref, type Filters } from '../lib/decision-filters.ts';
import { formatNumber } from '../lib/format.ts';
import { Link } from './Link.tsx';

/** A count with its change against the previous period. */
export function Delta({ current, previous }: { current: number; previous: number }) {
  const c = change(current, previous);
  return (
    <span
      className={c.direction === 'same' ? 'muted' : `delta-${c.direction}`}
      title={`previous period: ${formatNumber(previous)}`}
    >
      {c.text}
    </span>
  );
}

const LISTS: Array<{
  key: keyof Omit<TopValues, 'siteId' | 'from' | 'to' | 'previousFrom'>;
  title: string;
  filter: (e: TopEntry) => Partial<Filters>;
}> = [
  { key: 'signals', title: 'Top signals', filter: (e) => ({ signal: e.key }) },
  { key: 'rules', title: 'Top custom rules', filter: (e) => ({ signal: `custom:${e.key}` }) },
  { key: 'ips', title: 'Top IP addresses', filter: (e) => ({ ip: e.key }) },
  { key: 'asns', title: 'Top networks (ASN)', filter: (e) => ({ asn: e.key }) },
  { key: 'countries', title: 'Top countries', filter: (e) => ({ country: e.key }) },
  { key: 'emailDomains', title: 'Top e-mail domains', filter: (e) => ({ emailDomain: e.key }) },
];

/**
 * The period's most frequent signals, rules, IPs, ASNs, countries and e-mail domains, each a link
 * to the decisions of the period filtered by it, with the change against the previous period.
 */
export function TopLists({ top }: { top: TopValues }) {
  return (
    <div className="top-lists" data-testid="top-lists">
      {LISTS.map((list) => (
        <div className="card" key={list.key} data-testid={`top-${list.key}`}>
          <h2>{list.title}</h2>
          {top[list.key].length === 0 ? (
            <p className="muted">None in this period.</p>
          ) : (
            <ol>
              {top[list.key].map((e) => (
                <li key={e.key}>
                  <Link href={decisionsHref({ ...list.filter(e), from: top.from, to: top.to })}>
                    <code>{e.key}</code>
                    {e.label ? <span className="muted"> {e.label}</span> : null}
                  </Link>
                  <span>
                    <strong>{formatNumber(e.count)}</strong> <Delta current={e.count} previous={e.previous} />
                  </span>
                </li>
              ))}
            </ol>
          )}
        </div>
      ))}
    </div>
  );
}
