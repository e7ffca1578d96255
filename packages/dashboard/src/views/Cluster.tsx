import { useState } from 'react';
import { api } from '../api/client.ts';
import type { Cluster } from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { AddToList } from '../components/AddToList.tsx';
import { ClusterGraph } from '../components/ClusterGraph.tsx';
import { ClusterState } from '../components/ClusterSummary.tsx';
import { EntityLabelControl } from '../components/EntityLabel.tsx';
import { Link } from '../components/Link.tsx';
import { Pill } from '../components/Pill.tsx';
import { Empty, ErrorMessage, Loading } from '../components/Status.tsx';
import { Table } from '../components/Table.tsx';
import { useAction } from '../hooks/useAction.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { pivotHref } from '../lib/entities.ts';
import { formatCount, formatDateTime, formatNumber } from '../lib/format.ts';
import { href } from '../lib/router.ts';

function Members({
  title,
  values,
  filter,
}: {
  title: string;
  values: string[];
  filter?: 'deviceId' | 'ip' | 'paymentHash';
}) {
  return (
    <div className="card">
      <h2>
        {title} <span className="count">{formatNumber(values.length)}</span>
      </h2>
      {values.length === 0 ? (
        <Empty>None.</Empty>
      ) : (
        <ul className="link-list">
          {values.map((v) => (
            <li key={v}>
              {filter ? (
                <Link href={pivotHref(filter, v)} title={`Decisions with ${filter} ${v}`}>
                  <code>{v}</code>
                </Link>
              ) : (
                <code>{v}</code>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const WEAK_LINK: Record<Cluster['related'][number]['shared'][number]['kind'], string> = {
  promo: 'promo code',
  network: 'network',
  emailDomain: 'e-mail domain',
};

/** Clusters linked only weakly (same promo code, /24, e-mail domain within an hour): hints, not members. */
function RelatedClusters({ related }: { related: Cluster['related'] }) {
  return (
    <div className="card" data-testid="related-clusters">
      <h2>
        Related clusters <span className="count">{formatNumber(related.length)}</span>
      </h2>
      <p className="muted">
        Weak links only: the same promo code, IPv4 /24 or e-mail domain within an hour of this cluster's
        decisions (last 30 days). Worth a look; not merged.
      </p>
      {related.length === 0 ? (
        <Empty>None.</Empty>
      ) : (
        <ul className="link-list">
          {related.map((r) => (
            <li key={r.clusterId} data-related={r.clusterId}>
              <Link href={href('clusters', r.clusterId)}>
                <code>{r.clusterId}</code>
              </Link>{' '}
              <span className="muted">{formatCount(r.accounts.length, 'account')}:</span>{' '}
              {r.shared.map((s) => `${WEAK_LINK[s.kind]} ${s.value}`).join(' · ')}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The members table with a checkbox each, and what to do with the selected accounts. */
function AccountTable({ cluster, onChanged }: { cluster: Cluster; onChanged: () => void }) {
  const app = useApp();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const canLabel = app.can('decisions.label');
  // Each selected account is labelled as a whole: all its decisions, past and future, count.
  const label = useAction(async (value: 'fraud' | 'legit') => {
    const accounts = [...selected];
    for (const account of accounts)
      await api.put(
        '/api/entity-labels',
        { kind: 'account', value: account, label: value },
        { siteId: cluster.siteId },
      );
    setNotice(`Labelled ${formatCount(accounts.length, 'account')} ${value}: every decision of them counts.`);
    onChanged();
  });
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const all = selected.size === cluster.members.length && cluster.members.length > 0;
  const linkedBy = (kind: 'device' | 'ip' | 'payment') =>
    cluster.links
      .filter((l) => l.kind === kind && l.accounts.some((a) => selected.has(a)))
      .map((l) => l.value);
  return (
    <div className="card">
      <h2>
        Accounts <span className="count">{formatNumber(cluster.accountCount)}</span>
      </h2>
      <div className="bulk-bar" data-testid="cluster-bulk">
        <label>
          <input
            type="checkbox"
            checked={all}
            onChange={() => setSelected(all ? new Set() : new Set(cluster.members.map((m) => m.accountId)))}
          />{' '}
          All
        </label>
        <span className="muted">{formatCount(selected.size, 'account')} selected</span>
        {canLabel ? (
          <>
            <button
              type="button"
              className="button small"
              disabled={!selected.size || label.busy}
              onClick={() => void label.execute('fraud')}
            >
              Label accounts fraud
            </button>
            <button
              type="button"
              className="button small"
              disabled={!selected.size || label.busy}
              onClick={() => void label.execute('legit')}
            >
              Label accounts legit
            </button>
          </>
        ) : null}
        {selected.size > 0 ? (
          <AddToList
            siteId={cluster.siteId}
            label="Add selected to list"
            values={{
              account_id: [...selected],
              device_id: linkedBy('device'),
              ip: linkedBy('ip'),
              payment_hash: linkedBy('payment'),
            }}
          />
        ) : null}
      </div>
      {notice ? (
        <p role="status" className="muted">
          {notice}
        </p>
      ) : null}
      <ErrorMessage error={label.error} title="Labels not saved" />
      <Table
        columns={[
          '',
          'Account',
          { label: 'Score', numeric: true },
          'Action',
          'Label',
          { label: 'Decisions', numeric: true },
          'Last seen',
        ]}
        testId="cluster-members"
      >
        {cluster.members.map((m) => (
          <tr key={m.accountId} data-account={m.accountId}>
            <td>
              <input
                type="checkbox"
                aria-label={`Select ${m.accountId}`}
                checked={selected.has(m.accountId)}
                onChange={() => toggle(m.accountId)}
              />
            </td>
            <td>
              <Link href={pivotHref('accountId', m.accountId)}>
                <code>{m.accountId}</code>
              </Link>
            </td>
            <td className="num">
              {m.latest ? (
                <Link href={href('decisions', m.latest.decisionId)}>{formatNumber(m.latest.riskScore)}</Link>
              ) : (
                '–'
              )}
            </td>
            <td>{m.latest ? <Pill value={m.latest.action} /> : '–'}</td>
            <td data-testid="member-label">
              <Pill value={m.label} />
            </td>
            <td className="num">{formatNumber(m.decisions)}</td>
            <td>{m.lastSeenAt ? formatDateTime(m.lastSeenAt) : '–'}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

/**
 * An identity cluster: a graph of its accounts and what links them, each account's latest score
 * and label, bulk label and add-to-list, and every device, IP and card its accounts used.
 */
export function ClusterView({ id }: { id: string }) {
  const state = useAsync(
    (signal) => api.get<Cluster>(`/api/clusters/${encodeURIComponent(id)}`, undefined, signal),
    [id],
  );
  const c = state.data;
  return (
    <section>
      <p className="breadcrumbs">
        <Link href={href('decisions')}>Decisions</Link> / cluster
      </p>
      <h1>
        Identity cluster <code className="heading-code">{c?.id ?? id}</code>
      </h1>
      {c && c.id !== id ? (
        <p className="notice" data-testid="cluster-merged">
          <code>{id}</code> merged into this cluster: the accounts below are its members now.
        </p>
      ) : null}
      {state.loading && !c ? <Loading label="Loading the cluster…" /> : null}
      {state.error ? <ClusterState error={state.error} /> : null}
      {c ? (
        <>
          <dl className="stat-row" data-testid="cluster-counts">
            <div>
              <dt>Accounts</dt>
              <dd>{formatNumber(c.accountCount)}</dd>
            </div>
            <div>
              <dt>Shared devices</dt>
              <dd>{formatNumber(c.sharedDevices)}</dd>
            </div>
            <div>
              <dt>Shared IPs</dt>
              <dd>{formatNumber(c.sharedIps)}</dd>
            </div>
            <div>
              <dt>Shared payments</dt>
              <dd>{formatNumber(c.sharedPayments)}</dd>
            </div>
            <div>
              <dt>Decisions</dt>
              <dd>{formatNumber(c.decisions)}</dd>
            </div>
          </dl>
          <EntityLabelControl siteId={c.siteId} kind="clusterId" value={c.id} />
          {c.truncated ? <p className="muted">Only the first 200 of each are listed.</p> : null}
          <div className="card">
            <h2>What links them</h2>
            {c.links.length === 0 ? (
              <Empty>No device, IP or card of the last 30 days links these accounts.</Empty>
            ) : null}
            <ClusterGraph cluster={c} />
          </div>
          <AccountTable cluster={c} onChanged={state.reload} />
          <RelatedClusters related={c.related} />
          <div className="grid-2">
            <Members title="Devices" values={c.devices} filter="deviceId" />
            <Members title="IP addresses" values={c.ips} filter="ip" />
            <Members title="Payment hashes" values={c.paymentHashes} filter="paymentHash" />
          </div>
        </>
      ) : null}
    </section>
  );
}
