import { useState } from 'react';
import { api } from '../api/client.ts';
import type { EntitySummary } from '../api/types.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { ENTITY_LABELS, type EntityKind, pivotHref } from '../lib/entities.ts';
import { formatDateTime, formatNumber } from '../lib/format.ts';
import { href } from '../lib/router.ts';
import { EntityLabelControl } from './EntityLabel.tsx';
import { Link } from './Link.tsx';
import { ErrorMessage, Loading } from './Status.tsx';

/** What the site's decisions say about one entity (GET /api/entities/summary). */
export function EntitySummaryCard({
  siteId,
  kind,
  value,
}: {
  siteId: string;
  kind: EntityKind;
  value: string;
}) {
  const state = useAsync(
    (signal) => api.get<EntitySummary>('/api/entities/summary', { siteId, kind, value }, signal),
    [siteId, kind, value],
  );
  const s = state.data;
  return (
    <section
      className="entity-card"
      aria-label={`${ENTITY_LABELS[kind]} summary`}
      data-testid="entity-summary"
    >
      <h2>
        {ENTITY_LABELS[kind]} <span className="mono">{value}</span>
      </h2>
      <EntityLabelControl siteId={siteId} kind={kind} value={value} />
      {state.loading && !s ? <Loading label="Loading the summary…" /> : null}
      <ErrorMessage error={state.error} title="Could not load the summary" />
      {s ? (
        <dl className="entity-facts">
          <div>
            <dt>Decisions</dt>
            <dd data-testid="entity-total">{formatNumber(s.total)}</dd>
          </div>
          <div>
            <dt>First seen</dt>
            <dd>{s.firstSeenAt ? formatDateTime(s.firstSeenAt) : '–'}</dd>
          </div>
          <div>
            <dt>Last seen</dt>
            <dd>{s.lastSeenAt ? formatDateTime(s.lastSeenAt) : '–'}</dd>
          </div>
          <div>
            <dt>Classification</dt>
            <dd>
              {formatNumber(s.byClassification.human ?? 0)} human ·{' '}
              {formatNumber(s.byClassification.suspicious ?? 0)} suspicious ·{' '}
              {formatNumber(s.byClassification.bot ?? 0)} bot
            </dd>
          </div>
          <div>
            <dt>Labels</dt>
            <dd>
              {formatNumber(s.labels.fraud)} fraud · {formatNumber(s.labels.legit)} legit ·{' '}
              {formatNumber(s.labels.none)} unlabelled
            </dd>
          </div>
          <div>
            <dt>Seen with</dt>
            <dd>
              {formatNumber(s.accounts)} accounts · {formatNumber(s.ips)} IPs · {formatNumber(s.devices)}{' '}
              devices
            </dd>
          </div>
          {s.network ? (
            <div>
              <dt>Network</dt>
              <dd>
                {[
                  s.network.country,
                  s.network.asn === null ? null : `AS${s.network.asn}`,
                  s.network.org,
                  s.network.hosting ? 'hosting/cloud' : null,
                ]
                  .filter(Boolean)
                  .join(' · ') || 'unknown'}
              </dd>
            </div>
          ) : null}
          {s.userAgent ? (
            <div>
              <dt>Latest user agent</dt>
              <dd title={s.userAgent.raw}>
                {s.userAgent.browser}
                {s.userAgent.version ? ` ${s.userAgent.version}` : ''} on {s.userAgent.os} ({s.userAgent.kind}
                )
              </dd>
            </div>
          ) : null}
          {s.clusters.length > 0 ? (
            <div>
              <dt>Clusters</dt>
              <dd>
                {s.clusters.map((c, i) => (
                  <span key={c}>
                    {i > 0 ? ', ' : ''}
                    <Link href={href('clusters', c)} className="mono">
                      {c}
                    </Link>
                  </span>
                ))}
              </dd>
            </div>
          ) : null}
        </dl>
      ) : null}
    </section>
  );
}

/**
 * An entity value that links to the decisions filtered by it; `summary` adds a button that
 * unfolds the entity's summary card in place.
 */
export function EntityLink({
  kind,
  value,
  label,
  siteId,
  summary = false,
}: {
  kind: EntityKind;
  value: string;
  label?: string;
  siteId?: string;
  summary?: boolean;
}) {
  const [open, setOpen] = useState(false);
  if (!value) return <span className="muted">–</span>;
  return (
    <span className="entity">
      <Link
        href={pivotHref(kind, value)}
        className="entity-link"
        title={`Decisions with this ${ENTITY_LABELS[kind].toLowerCase()}`}
        data-entity={kind}
      >
        {label ?? value}
      </Link>
      {summary && siteId ? (
        <>
          <button
            type="button"
            className="entity-toggle"
            aria-expanded={open}
            aria-label={`${open ? 'Hide' : 'Show'} the ${ENTITY_LABELS[kind].toLowerCase()} summary`}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? '−' : 'i'}
          </button>
          {open ? <EntitySummaryCard siteId={siteId} kind={kind} value={value} /> : null}
        </>
      ) : null}
    </span>
  );
}
