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
  const c = state.data;
  // The cluster as it is now (the same numbers as its page); the decision's own numbers are what
  // it was scored with.
  const stats: Array<[string, number | undefined]> = [
    ['Accounts', c?.accountCount],
    ['Linked accounts', c ? c.accountCount - 1 : undefined],
    ['Shared devices', c?.sharedDevices],
    ['Shared IPs', c?.sharedIps],
    ['Shared payments', c?.sharedPayments],
  ];
  return (
    <>
      {c ? (
        <dl className="stat-row" data-testid="cluster-now">
          {stats.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value === undefined ? '–' : formatNumber(value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {state.loading ? <Loading label="Loading the cluster…" /> : null}
      {state.error ? <ClusterState error={state.error} /> : null}
      <p>
        Cluster <code>{c?.id ?? identity.cluster_id}</code>
        {c && c.id !== identity.cluster_id ? (
          <span className="muted">
            {' '}
            (scored in <code>{identity.cluster_id}</code>, since merged)
          </span>
        ) : null}{' '}
        · <Link href={href('clusters', c?.id ?? identity.cluster_id)}>Open the cluster</Link>
      </p>
      <p className="muted" data-testid="cluster-at-scoring">
        When scored: {formatCount(identity.linked_accounts, 'linked account')},{' '}
        {formatCount(identity.shared_devices, 'shared device')},{' '}
        {formatCount(identity.shared_ips, 'shared IP', 'shared IPs')},{' '}
        {formatCount(identity.shared_payments, 'shared payment')}.
      </p>
    </>
  );
}
