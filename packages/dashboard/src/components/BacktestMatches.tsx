import type { LabelQuality, MatchedDecision } from '../api/types.ts';
import { formatDateTime, formatNumber, formatPercent } from '../lib/format.ts';
import { href } from '../lib/router.ts';
import { Link } from './Link.tsx';
import { Pill } from './Pill.tsx';
import { Empty } from './Status.tsx';
import { Table } from './Table.tsx';

/** Precision and recall of the draft against the labels of the replayed period. */
export function LabelQualityView({ name, quality }: { name: string; quality: LabelQuality | undefined }) {
  if (!quality) return null;
  return (
    <div data-testid="backtest-quality">
      <h3>
        Quality of <code>{name}</code> against labels
      </h3>
      {quality.labeled === 0 ? (
        <p className="muted">
          No labelled decisions in this period: label decisions fraud or legit to measure it.
        </p>
      ) : (
        <dl className="stat-row">
          <div>
            <dt>Precision</dt>
            <dd data-testid="backtest-precision">{formatPercent(quality.precision)}</dd>
          </div>
          <div>
            <dt>Recall</dt>
            <dd data-testid="backtest-recall">{formatPercent(quality.recall)}</dd>
          </div>
          <div>
            <dt>Labelled</dt>
            <dd>{formatNumber(quality.labeled)}</dd>
          </div>
          <div>
            <dt>Fraud caught / missed</dt>
            <dd>
              {formatNumber(quality.truePositives)} / {formatNumber(quality.falseNegatives)}
            </dd>
          </div>
          <div>
            <dt>Legit matched</dt>
            <dd>{formatNumber(quality.falsePositives)}</dd>
          </div>
        </dl>
      )}
    </div>
  );
}

/** One page of the decisions the draft matched, with Previous / Next (each page is a new replay). */
export function MatchedDecisions({
  page,
  busy,
  onPage,
}: {
  page: { total: number; offset: number; limit: number; nextOffset: number | null; items: MatchedDecision[] };
  busy: boolean;
  onPage: (offset: number) => void;
}) {
  return (
    <div data-testid="backtest-matches">
      <h3>Matched decisions ({formatNumber(page.total)})</h3>
      {page.total === 0 ? (
        <Empty>The draft matched no decision in this period.</Empty>
      ) : (
        <>
          <Table columns={['Decision', 'Event', 'Label', 'Before', 'After', 'Rules']}>
            {page.items.map((m) => (
              <tr key={m.decisionId} data-testid="backtest-match">
                <td>
                  <Link href={href('decisions', m.decisionId)}>{formatDateTime(m.createdAt)}</Link>
                </td>
                <td>
                  {m.eventType} · {m.accountId}
                </td>
                <td>{m.label ? <Pill value={m.label} /> : <span className="muted">–</span>}</td>
                <td>
                  {formatNumber(m.before.score)} <Pill value={m.before.action} />
                </td>
                <td>
                  {formatNumber(m.after.score)} <Pill value={m.after.action} />
                </td>
                <td>{[...m.matchedRules, ...m.shadowRules.map((r) => `${r} (shadow)`)].join(', ')}</td>
              </tr>
            ))}
          </Table>
          <div className="form-actions">
            <span className="muted">
              {formatNumber(page.offset + 1)}–{formatNumber(page.offset + page.items.length)} of{' '}
              {formatNumber(page.total)}
            </span>
            <button
              type="button"
              className="button small"
              disabled={busy || page.offset === 0}
              onClick={() => onPage(Math.max(0, page.offset - page.limit))}
            >
              Previous
            </button>
            <button
              type="button"
              className="button small"
              disabled={busy || page.nextOffset === null}
              onClick={() => page.nextOffset !== null && onPage(page.nextOffset)}
            >
              Next
            </button>
          </div>
        </>
      )}
    </div>
  );
}
