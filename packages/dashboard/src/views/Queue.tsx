import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api/client.ts';
import type { DecisionPage, DecisionSummary, Site } from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { AddToList, listValuesOf } from '../components/AddToList.tsx';
import { EntityLink } from '../components/EntitySummary.tsx';
import { Link } from '../components/Link.tsx';
import { Pill } from '../components/Pill.tsx';
import { RequireSite } from '../components/RequireSite.tsx';
import { Empty, ErrorMessage, Loading } from '../components/Status.tsx';
import { useAction } from '../hooks/useAction.ts';
import { navigate } from '../hooks/useRoute.ts';
import { formatCount, formatDateTime, formatNumber } from '../lib/format.ts';
import {
  labelTargets,
  moveCursor,
  QUEUE_ACTIONS,
  queueCommand,
  typedIntoField,
} from '../lib/review-queue.ts';
import { href } from '../lib/router.ts';

type Label = 'fraud' | 'legit';

/** The decision under the cursor: its signals, entities and "add to list". */
function Current({ d, onLabel }: { d: DecisionSummary; onLabel: ((label: Label) => void) | null }) {
  const top = [...d.signals].sort((a, b) => Math.abs(b.score) - Math.abs(a.score)).slice(0, 6);
  return (
    <aside className="card queue-current" aria-label="Current decision" data-testid="queue-current">
      <h2>
        Score {formatNumber(d.riskScore)} <Pill value={d.action} /> <Pill value={d.label} />
      </h2>
      <p>
        <Link href={href('decisions', d.id)}>Open the decision</Link> · {formatDateTime(d.createdAt)} ·{' '}
        {d.eventType.replace(/_/g, ' ')}
      </p>
      <dl className="facts">
        <div>
          <dt>Account</dt>
          <dd>
            <EntityLink kind="accountId" value={d.accountId} />
          </dd>
        </div>
        <div>
          <dt>IP</dt>
          <dd>
            <EntityLink kind="ip" value={d.ipAddress} />
          </dd>
        </div>
        {d.clusterId ? (
          <div>
            <dt>Cluster</dt>
            <dd>
              <Link href={href('clusters', d.clusterId)}>open</Link>
            </dd>
          </div>
        ) : null}
      </dl>
      {onLabel ? (
        <p className="label-buttons">
          <button type="button" className="button small" onClick={() => onLabel('fraud')}>
            Fraud <kbd>f</kbd>
          </button>{' '}
          <button type="button" className="button small" onClick={() => onLabel('legit')}>
            Legit <kbd>l</kbd>
          </button>
        </p>
      ) : null}
      <ul className="signal-list">
        {top.map((s) => (
          <li key={s.rule}>
            <code>{s.rule}</code> {s.score > 0 ? '+' : ''}
            {formatNumber(s.score)}
          </li>
        ))}
      </ul>
      <AddToList siteId={d.siteId} values={listValuesOf(d)} />
    </aside>
  );
}

function QueueBody({ site }: { site: Site }) {
  const app = useApp();
  const canLabel = app.can('decisions.label');
  const [unlabelled, setUnlabelled] = useState(true);
  const [items, setItems] = useState<DecisionSummary[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [cursor, setCursor] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const tableRef = useRef<HTMLTableSectionElement>(null);

  const query = useCallback(
    (after?: string) => ({
      siteId: site.id,
      action: QUEUE_ACTIONS,
      limit: '50',
      ...(unlabelled ? { label: 'none' } : {}),
      ...(after ? { cursor: after } : {}),
    }),
    [site.id, unlabelled],
  );

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setLoadError(null);
    api.get<DecisionPage>('/api/decisions', query(), controller.signal).then(
      (page) => {
        setItems(page.items);
        setNext(page.nextCursor);
        setCursor(0);
        setSelected(new Set());
        setLoading(false);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setLoadError(err);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [query]);

  const more = useAction(async () => {
    if (!next) return;
    const page = await api.get<DecisionPage>('/api/decisions', query(next));
    setItems((old) => [...old, ...page.items]);
    setNext(page.nextCursor);
  });

  const label = useAction(async (value: Label, ids: string[]) => {
    if (ids.length === 0) return;
    const res = await api.post<{ labeledAt: string }>('/api/decisions/labels', {
      decisionIds: ids,
      label: value,
    });
    const done = new Set(ids);
    setItems((old) =>
      old.map((d) => (done.has(d.id) ? { ...d, label: value, labeledAt: res.labeledAt } : d)),
    );
    setSelected(new Set());
    setNotice(`${formatCount(ids.length, 'decision')} labelled ${value}.`);
  });

  const current = items[cursor];
  const onKey = useCallback(
    (e: KeyboardEvent) => {
      if (typedIntoField(e.target as HTMLElement | null)) return;
      const command = queueCommand(e.key, { ctrl: e.ctrlKey, meta: e.metaKey, alt: e.altKey });
      if (!command) return;
      if (command.type === 'open' && (e.target as HTMLElement | null)?.closest?.('a, button')) return;
      e.preventDefault();
      if (command.type === 'move') setCursor((c) => moveCursor(c, command.by, items.length));
      else if (command.type === 'toggle' && current) {
        setSelected((s) => {
          const n = new Set(s);
          if (n.has(current.id)) n.delete(current.id);
          else n.add(current.id);
          return n;
        });
      } else if (command.type === 'open' && current) navigate(href('decisions', current.id));
      else if (command.type === 'label' && canLabel && !label.busy) {
        const ids = labelTargets(selected, current?.id);
        void label.execute(command.label, ids);
        // One decision labelled: on to the next one.
        if (selected.size === 0) setCursor((c) => moveCursor(c, 1, items.length));
      }
    },
    [items.length, current, selected, canLabel, label],
  );

  useEffect(() => {
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onKey]);

  useEffect(() => {
    tableRef.current?.querySelector(`[data-index="${cursor}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [cursor]);

  const toggle = (id: string) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  return (
    <>
      <p className="muted queue-help" id="queue-keys">
        Keys: <kbd>j</kbd>/<kbd>↓</kbd> next · <kbd>k</kbd>/<kbd>↑</kbd> previous · <kbd>f</kbd> fraud ·{' '}
        <kbd>l</kbd> legit · <kbd>x</kbd> select · <kbd>o</kbd>/<kbd>Enter</kbd> open. With decisions
        selected, a label key labels them all.
      </p>
      <div className="bulk-bar">
        <label>
          <input type="checkbox" checked={unlabelled} onChange={(e) => setUnlabelled(e.target.checked)} />{' '}
          Unlabelled only
        </label>
        <span className="muted" data-testid="queue-selected">
          {formatCount(selected.size, 'decision')} selected
        </span>
        {canLabel ? (
          <>
            <button
              type="button"
              className="button small"
              disabled={selected.size === 0 || label.busy}
              onClick={() => void label.execute('fraud', [...selected])}
            >
              Label selected fraud
            </button>
            <button
              type="button"
              className="button small"
              disabled={selected.size === 0 || label.busy}
              onClick={() => void label.execute('legit', [...selected])}
            >
              Label selected legit
            </button>
          </>
        ) : (
          <span className="muted">Viewers cannot label decisions.</span>
        )}
      </div>
      {notice ? (
        <p role="status" className="muted" data-testid="queue-notice">
          {notice}
        </p>
      ) : null}
      <ErrorMessage error={label.error} title="Labels not saved" />
      <ErrorMessage error={loadError} title="Could not load the queue" />
      {loading ? <Loading label="Loading the queue…" /> : null}
      {!loading && items.length === 0 && !loadError ? (
        <Empty>
          Nothing to review: no {unlabelled ? 'unlabelled ' : ''}decision with action review or challenge.
        </Empty>
      ) : null}
      {items.length > 0 ? (
        <div className="queue-layout">
          <div className="table-wrap">
            <table className="table queue-table" data-testid="queue" aria-describedby="queue-keys">
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">Select</span>
                  </th>
                  <th scope="col" className="num">
                    Score
                  </th>
                  <th scope="col">Action</th>
                  <th scope="col">Time</th>
                  <th scope="col">Account</th>
                  <th scope="col">Label</th>
                </tr>
              </thead>
              <tbody ref={tableRef}>
                {items.map((d, i) => (
                  <tr
                    key={d.id}
                    data-index={i}
                    data-id={d.id}
                    className={i === cursor ? 'active' : undefined}
                    aria-current={i === cursor ? 'true' : undefined}
                    onClick={() => setCursor(i)}
                  >
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Select decision ${d.id}`}
                        checked={selected.has(d.id)}
                        onChange={() => toggle(d.id)}
                      />
                    </td>
                    <td className="num">{formatNumber(d.riskScore)}</td>
                    <td>
                      <Pill value={d.action} />
                    </td>
                    <td>
                      <Link href={href('decisions', d.id)}>{formatDateTime(d.createdAt)}</Link>
                    </td>
                    <td className="truncate">{d.accountId}</td>
                    <td data-testid="queue-label">
                      <Pill value={d.label} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {next ? (
              <button
                type="button"
                className="button"
                disabled={more.busy}
                onClick={() => void more.execute()}
              >
                Load more
              </button>
            ) : null}
            <ErrorMessage error={more.error} title="Could not load more" />
          </div>
          {current ? (
            <Current
              d={current}
              onLabel={canLabel ? (value) => void label.execute(value, [current.id]) : null}
            />
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/** The review queue: decisions whose action was review or challenge, labelled from the keyboard. */
export function QueueView() {
  return (
    <section>
      <h1>Review queue</h1>
      <RequireSite>{(site) => <QueueBody key={site.id} site={site} />}</RequireSite>
    </section>
  );
}
