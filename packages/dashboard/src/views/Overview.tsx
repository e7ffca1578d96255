import { useState } from 'react';
import { api } from '../api/client.ts';
import {
  ACTIONS,
  CLASSIFICATIONS,
  EVENT_TYPES,
  type Site,
  type Stats,
  type TopValues,
} from '../api/types.ts';
import { HBars, StackedColumns } from '../components/charts.tsx';
import { Link } from '../components/Link.tsx';
import { RequireSite } from '../components/RequireSite.tsx';
import { Empty, ErrorMessage, Loading } from '../components/Status.tsx';
import { Delta, TopLists } from '../components/TopLists.tsx';
import { useAsync } from '../hooks/useAsync.ts';
import { useInterval } from '../hooks/useInterval.ts';
import { bucketize, DAY_MS, HOUR_MS } from '../lib/charts.ts';
import {
  formatDateTime,
  formatDay,
  formatNumber,
  formatPercent,
  formatTime,
  userTimeZone,
} from '../lib/format.ts';
import { href } from '../lib/router.ts';

const RANGES = [
  { key: '24h', label: 'Last 24 hours', ms: 24 * HOUR_MS },
  { key: '7d', label: '7 days', ms: 7 * DAY_MS },
  { key: '30d', label: '30 days', ms: 30 * DAY_MS },
] as const;

function SiteOverview({ site }: { site: Site }) {
  const [range, setRange] = useState<(typeof RANGES)[number]>(RANGES[0]);
  const state = useAsync(
    (signal) => {
      const to = Date.now();
      return api.get<Stats>(
        '/api/stats',
        { siteId: site.id, from: new Date(to - range.ms).toISOString(), to: new Date(to).toISOString() },
        signal,
      );
    },
    [site.id, range],
  );
  useInterval(state.reload, 30_000);
  const stats = state.data;
  // The previous period of the same length, and the top lists, for the window the stats answered.
  const compared = useAsync(
    async (signal) => {
      if (!stats) return null;
      const span = Date.parse(stats.to) - Date.parse(stats.from);
      const previousFrom = new Date(Date.parse(stats.from) - span).toISOString();
      const [previous, top] = await Promise.all([
        api.get<Stats>('/api/stats', { siteId: site.id, from: previousFrom, to: stats.from }, signal),
        api.get<TopValues>('/api/stats/top', { siteId: site.id, from: stats.from, to: stats.to }, signal),
      ]);
      return { previous, top };
    },
    [site.id, stats?.from, stats?.to],
  );
  const previous = compared.data?.previous;
  const vs = (now: number, before: ((p: Stats) => number) | null) =>
    previous && before ? (
      <div className="muted">
        vs previous <Delta current={now} previous={before(previous)} />
      </div>
    ) : null;
  const from = stats ? Date.parse(stats.from) : 0;
  const to = stats ? Date.parse(stats.to) : 0;
  const { size, buckets } = stats
    ? bucketize(stats.hourly, CLASSIFICATIONS, from, to)
    : { size: HOUR_MS, buckets: [] };
  const actionBuckets = stats ? bucketize(stats.hourly, ACTIONS, from, to).buckets : [];
  const per = size === HOUR_MS ? 'hour' : 'day';
  const tickLabel = (t: number) => (size === HOUR_MS ? formatTime(t) : formatDay(t));
  const share = (n: number) => (stats && stats.total > 0 ? n / stats.total : null);
  return (
    <>
      <div className="page-head">
        <h1>Overview · {site.name}</h1>
        <fieldset className="segmented">
          <legend className="visually-hidden">Period</legend>
          {RANGES.map((r) => (
            <button key={r.key} type="button" aria-pressed={range.key === r.key} onClick={() => setRange(r)}>
              {r.label}
            </button>
          ))}
        </fieldset>
      </div>
      {state.loading && !stats ? <Loading label="Loading statistics…" /> : null}
      <ErrorMessage error={state.error} title="Could not load the statistics" />
      {stats ? (
        <>
          <dl className="stat-row">
            <div>
              <dt>Decisions</dt>
              <dd data-testid="stats-total">{formatNumber(stats.total)}</dd>
              {vs(stats.total, (p) => p.total)}
            </div>
            <div>
              <dt>Bots</dt>
              <dd>{formatPercent(share(stats.byClassification.bot ?? 0))}</dd>
              {vs(stats.byClassification.bot ?? 0, (p) => p.byClassification.bot ?? 0)}
            </div>
            <div>
              <dt>Suspicious</dt>
              <dd>{formatPercent(share(stats.byClassification.suspicious ?? 0))}</dd>
              {vs(stats.byClassification.suspicious ?? 0, (p) => p.byClassification.suspicious ?? 0)}
            </div>
            <div>
              <dt>Blocked</dt>
              <dd>{formatPercent(share(stats.byAction.block ?? 0))}</dd>
              {vs(stats.byAction.block ?? 0, (p) => p.byAction.block ?? 0)}
            </div>
          </dl>
          {stats.total === 0 ? (
            <Empty>
              No decisions in this period. Open the <a href="/demo">demo shop</a> to make some, then look at{' '}
              <Link href={href('decisions')}>Decisions</Link>.
            </Empty>
          ) : null}
          <ErrorMessage error={compared.error} title="Could not load the top lists" />
          {compared.data ? <TopLists top={compared.data.top} /> : null}
          <div className="card">
            <h2>Decisions by classification, per {per}</h2>
            <StackedColumns
              buckets={buckets}
              keys={CLASSIFICATIONS}
              label="Decisions by classification over time"
              tickLabel={tickLabel}
            />
          </div>
          <div className="card">
            <h2>Decisions by action, per {per}</h2>
            <StackedColumns
              buckets={actionBuckets}
              keys={ACTIONS}
              label="Decisions by action over time"
              tickLabel={tickLabel}
            />
          </div>
          <div className="grid-2">
            <div className="card">
              <h2>By action</h2>
              <HBars counts={stats.byAction} keys={ACTIONS} label="Decisions by action" />
            </div>
            <div className="card">
              <h2>By event type</h2>
              <HBars counts={stats.byEventType} keys={EVENT_TYPES} label="Decisions by event type" />
            </div>
          </div>
          <p className="muted">
            {formatDateTime(stats.from)} – {formatDateTime(stats.to)} ({userTimeZone()}). Refreshes every 30
            seconds.
          </p>
        </>
      ) : null}
    </>
  );
}

export function OverviewView() {
  return (
    <section>
      <RequireSite>{(site) => <SiteOverview key={site.id} site={site} />}</RequireSite>
    </section>
  );
}
