import { api } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { Cluster, IdentitySummary } from '../api/types.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { formatCount, formatNumber } from '../lib/format.ts';
import { href } from '../lib/router.ts';
import { Link } from './Link.tsx';
import { Empty, ErrorMessage, Loading, PlanRequired } from './Status.tsx';

/** A cluster's state for a view: the cluster, or why there is none (plan, missing, error). */
export function ClusterState({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.isPlanRequired) {
    return <PlanRequired plan="Pro" feature="Identity clusters" />;
  }
  if (error instanceof ApiError && error.isNotFound) {
    return <Empty>The cluster's members are not available ({error.message}).</Empty>;
  }
  return <ErrorMessage error={error} title="Could not load the cluster" />;
}

/** The decision's identity numbers, and its cluster's members from GET /api/clusters/{id}. */
export function ClusterSummary({ identity }: { identity: IdentitySummary | undefined }) {
  const id = identity?.cluster_id;
  const state = useAsync(
    (signal) =>
      id
        ? api.get<Cluster>(`/api/clusters/${encodeURIComponent(id)}`, undefined, signal)
        : Promise.resolve(undefined),
    [id],
  );
  if (!identity) {
    return (
      <Empty>No identity cluster on this decision: identity linking needs the Pro or Enterprise plan.</Empty>
    );
  }
  return (
    <>
      <dl className="stat-row">
        <div>
          <dt>Linked accounts</dt>
          <dd>{formatNumber(identity.linked_accounts)}</dd>
        </div>
        <div>
          <dt>Shared devices</dt>
          <dd>{formatNumber(identity.shared_devices)}</dd>
        </div>
        <div>
          <dt>Shared IPs</dt>
          <dd>{formatNumber(identity.shared_ips)}</dd>
        </div>
        <div>
          <dt>Shared payments</dt>
          <dd>{formatNumber(identity.shared_payments)}</dd>
        </div>
      </dl>
      <p>
        Cluster <code>{identity.cluster_id}</code> ·{' '}
        <Link href={href('clusters', identity.cluster_id)}>Open the cluster</Link>
      </p>
      {state.loading ? <Loading label="Loading the cluster…" /> : null}
      {state.error ? <ClusterState error={state.error} /> : null}
      {state.data ? (
        <p className="muted">
          {formatCount(state.data.accounts.length, 'account')},{' '}
          {formatCount(state.data.devices.length, 'device')},{' '}
          {formatCount(state.data.ips.length, 'IP address', 'IP addresses')},{' '}
          {formatCount(state.data.paymentHashes.length, 'payment hash', 'payment hashes')}.
        </p>
      ) : null}
    </>
  );
}
