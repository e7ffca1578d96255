import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api/client.ts';
import type { DecisionPage, DecisionSummary, Site } from '../api/types.ts';
import { DecisionFilterPanel, DecisionSearch } from '../components/DecisionFilters.tsx';
import { DecisionTable } from '../components/DecisionTable.tsx';
import { EntitySummaryCard } from '../components/EntitySummary.tsx';
import { RequireSite } from '../components/RequireSite.tsx';
import { Empty, ErrorMessage, Loading } from '../components/Status.tsx';
import { useAction } from '../hooks/useAction.ts';
import { useInterval } from '../hooks/useInterval.ts';
import { navigate, useRoute } from '../hooks/useRoute.ts';
import { type Filters, filterQuery, filtersFromUrl, pivotOf } from '../lib/decision-filters.ts';
import { formatNumber, userTimeZone } from '../lib/format.ts';
import { mergeNewest, pollNewest } from '../lib/live.ts';

const POLL_MS = 4000;
const PAGE = 50;
/** Pages one poll may follow before it gives up and offers a reload instead. */
const MAX_POLL_PAGES = 5;

function query(siteId: string, f: Filters): Record<string, string | number> & { from?: string } {
  return { ...filterQuery(siteId, f), limit: PAGE };
}

/** Download the filtered decisions (the export streams; the browser saves the file). */
async function download(siteId: string, filters: Filters, format: 'csv' | 'json') {
  const blob = await api.download('/api/decisions/export', { ...filterQuery(siteId, filters), format });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `decisions.${format === 'csv' ? 'csv' : 'jsonl'}`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function DecisionList({ site }: { site: Site }) {
  const [draft, setDraft] = useState<Filters>(filtersFromUrl);
  const [filters] = useState<Filters>(draft);
  const [items, setItems] = useState<DecisionSummary[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [live, setLive] = useState(true);
  const [liveError, setLiveError] = useState<unknown>(null);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  // More decisions arrived than one poll may page through: at least this many (live stops).
  const [overflow, setOverflow] = useState<number | null>(null);
  const [reloads, setReloads] = useState(0);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const polling = useRef(false);
  // Bumped by every fresh load, so a poll that started before it does not merge into the new list.
  const epoch = useRef(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reloads` asks for the first page again
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    setOverflow(null);
    setFresh(new Set());
    epoch.current++;
    api.get<DecisionPage>('/api/decisions', query(site.id, filters), controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setItems(page.items);
        setCursor(page.nextCursor);
        setLoading(false);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setError(err);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [site.id, filters, reloads]);

  const loadMore = async () => {
    if (!cursor) return;
    setLoadingMore(true);
    try {
      const page = await api.get<DecisionPage>('/api/decisions', { ...query(site.id, filters), cursor });
      setItems((old) => [...old, ...page.items.filter((d) => !old.some((o) => o.id === d.id))]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err);
    } finally {
      setLoadingMore(false);
    }
  };

  // Live: ask for decisions since the newest one shown, page through them until one already shown
  // (so a burst of more than a page leaves no gap) and put the new ones on top.
  const poll = useCallback(async () => {
    if (polling.current) return;
    polling.current = true;
    const started = epoch.current;
    const newest = itemsRef.current[0];
    const q = query(site.id, filters);
    const since = newest ? newest.createdAt : q.from;
    try {
      const result = await pollNewest(
        (cursor) =>
          api.get<DecisionPage>('/api/decisions', { ...q, from: since, ...(cursor ? { cursor } : {}) }),
        new Set(itemsRef.current.map((d) => d.id)),
        MAX_POLL_PAGES,
      );
      if (epoch.current !== started) return;
      setLiveError(null);
      if (result.kind === 'overflow') {
        setOverflow(result.atLeast);
        return;
      }
      if (result.added.length === 0) return;
      setItems((old) => mergeNewest(old, result.added));
      setFresh(new Set(result.added.map((d) => d.id)));
    } catch (err) {
      setLiveError(err);
    } finally {
      polling.current = false;
    }
  }, [site.id, filters]);
  const liveAllowed = filters.to === '';
  useInterval(poll, POLL_MS, live && liveAllowed && !loading && !error && overflow === null);

  // Filters live in the URL (a saved view is a bookmark): applying navigates, the list remounts.
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(draft)) if (v.trim()) params.set(k, v.trim());
    const qs = params.toString();
    navigate(qs ? `${location.pathname}?${qs}` : location.pathname);
  };
  const reset = () => navigate(location.pathname);
  const exporting = useAction((format: 'csv' | 'json') => download(site.id, filters, format));
  const pivot = pivotOf(filters);
  const active = Object.entries(filters).filter(([k, v]) => k !== 'q' && v !== '').length;
  const set = (key: keyof Filters, value: string) => setDraft((d) => ({ ...d, [key]: value }));

  return (
    <>
      <DecisionSearch draft={draft} onChange={set} onApply={apply} />
      <DecisionFilterPanel draft={draft} active={active} onChange={set} onApply={apply} onReset={reset} />
      {pivot ? <EntitySummaryCard siteId={site.id} kind={pivot.kind} value={pivot.value} /> : null}
      <div className="toolbar">
        <span
          className={`live-indicator${live && liveAllowed && overflow === null ? ' on' : ''}`}
          role="status"
          aria-live="polite"
        >
          <span className="dot" aria-hidden="true" />
          {!liveAllowed
            ? 'Live off (a "To" time is set)'
            : overflow !== null
              ? 'Live stopped (reload)'
              : live
                ? 'Live'
                : 'Paused'}
        </span>
        <button
          type="button"
          className="button small secondary"
          aria-pressed={!live}
          onClick={() => setLive((l) => !l)}
          disabled={!liveAllowed}
        >
          {live ? 'Pause' : 'Resume'}
        </button>
        <span className="muted">Times in {userTimeZone()}</span>
        <span className="toolbar-end">
          <button
            type="button"
            className="button small secondary"
            disabled={exporting.busy}
            onClick={() => exporting.execute('csv')}
          >
            Export CSV
          </button>
          <button
            type="button"
            className="button small secondary"
            disabled={exporting.busy}
            onClick={() => exporting.execute('json')}
          >
            Export JSON
          </button>
        </span>
      </div>
      <ErrorMessage error={exporting.error} title="Export failed" />
      {liveError ? <ErrorMessage error={liveError} title="Live update failed" /> : null}
      {overflow !== null ? (
        <div className="status status-info live-overflow" role="status">
          <strong>{formatNumber(overflow)}+ new decisions</strong> — more than live updates fetch at once.{' '}
          <button type="button" className="button small" onClick={() => setReloads((n) => n + 1)}>
            Reload
          </button>
        </div>
      ) : null}
      {loading ? (
        <Loading label="Loading decisions…" />
      ) : error ? (
        <ErrorMessage error={error} title="Could not load decisions" />
      ) : items.length === 0 ? (
        <Empty>
          No decisions match. New ones appear here as they are made (open the /demo shop to make some).
        </Empty>
      ) : (
        <>
          <DecisionTable items={items} fresh={fresh} />
          <div className="pager">
            <span className="muted">{formatNumber(items.length)} shown</span>
            {cursor ? (
              <button type="button" className="button secondary" onClick={loadMore} disabled={loadingMore}>
                {loadingMore ? 'Loading…' : 'Load older'}
              </button>
            ) : (
              <span className="muted">End of the list</span>
            )}
          </div>
        </>
      )}
    </>
  );
}

export function DecisionsView() {
  // A new URL (a pivot, applied filters, back/forward) is a new list.
  const { search } = useRoute();
  return (
    <section>
      <h1>Decisions</h1>
      <RequireSite>{(site) => <DecisionList key={`${site.id}${search}`} site={site} />}</RequireSite>
    </section>
  );
}
