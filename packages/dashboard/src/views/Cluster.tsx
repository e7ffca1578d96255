import { api } from '../api/client.ts';
import type { Cluster } from '../api/types.ts';
import { ClusterState } from '../components/ClusterSummary.tsx';
import { Link } from '../components/Link.tsx';
import { Empty, Loading } from '../components/Status.tsx';
import { useAsync } from '../hooks/useAsync.ts';
import { formatNumber } from '../lib/format.ts';
import { href } from '../lib/router.ts';

function decisionsWhere(key: string, value: string): string {
  return `${href('decisions')}?${new URLSearchParams({ [key]: value }).toString()}`;
}

function Members({ title, values, filter }: { title: string; values: string[]; filter?: string }) {
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
                <Link href={decisionsWhere(filter, v)} title={`Decisions with ${filter} ${v}`}>
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

/** An identity cluster: its accounts, devices, IPs and payment hashes, each linked to its decisions. */
export function ClusterView({ id }: { id: string }) {
  const state = useAsync(
    (signal) => api.get<Cluster>(`/api/clusters/${encodeURIComponent(id)}`, undefined, signal),
    [id],
  );
  return (
    <section>
      <p className="breadcrumbs">
        <Link href={href('decisions')}>Decisions</Link> / cluster
      </p>
      <h1>
        Identity cluster <code className="heading-code">{id}</code>
      </h1>
      {state.loading ? <Loading label="Loading the cluster…" /> : null}
      {state.error ? <ClusterState error={state.error} /> : null}
      {state.data ? (
        <div className="grid-2">
          <Members title="Accounts" values={state.data.accounts} filter="accountId" />
          <Members title="Devices" values={state.data.devices} filter="deviceId" />
          <Members title="IP addresses" values={state.data.ips} filter="ip" />
          <Members title="Payment hashes" values={state.data.paymentHashes} />
        </div>
      ) : null}
    </section>
  );
}
