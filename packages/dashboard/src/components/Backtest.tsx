import { type FormEvent, useState } from 'react';
import { api } from '../api/client.ts';
import { ApiError, fieldErrors } from '../api/errors.ts';
import { ACTIONS, type BacktestResult, CLASSIFICATIONS, type RuleDraft } from '../api/types.ts';
import { DAY_MS } from '../lib/charts.ts';
import { formatDateTime, formatMs, formatNumber, fromLocalInput, toLocalInput } from '../lib/format.ts';
import { href } from '../lib/router.ts';
import { LabelQualityView, MatchedDecisions } from './BacktestMatches.tsx';
import { GroupedColumns } from './charts.tsx';
import { Field } from './Field.tsx';
import { Link } from './Link.tsx';
import { Pill } from './Pill.tsx';
import { Empty, ErrorMessage, Loading } from './Status.tsx';
import { Table } from './Table.tsx';

const PAGE = 20;

/** Replays recorded decisions through the saved rules with this draft laid over them by name. */
export function BacktestPanel({
  siteId,
  draft,
  onDraftErrors,
}: {
  siteId: string;
  draft: () => RuleDraft;
  /** Problems of the draft itself (paths `body.rules.0.<field>`), shown next to its fields. */
  onDraftErrors: (errors: Record<string, string[]>) => void;
}) {
  const [from, setFrom] = useState(() => toLocalInput(new Date(Date.now() - 7 * DAY_MS)));
  const [to, setTo] = useState('');
  const [result, setResult] = useState<BacktestResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const [draftName, setDraftName] = useState('');

  /** Replay; `matchesOffset` pages the matched decisions (each page replays the period again). */
  const replay = async (matchesOffset: number) => {
    setBusy(true);
    setError(null);
    onDraftErrors({});
    try {
      const rule = draft();
      const body: Record<string, unknown> = {
        rules: [rule],
        includeExisting: true,
        examples: 10,
        matchesOffset,
        matchesLimit: PAGE,
      };
      const f = fromLocalInput(from);
      const t = fromLocalInput(to);
      if (f) body.from = f;
      if (t) body.to = t;
      setDraftName(rule.name);
      setResult(await api.post<BacktestResult>('/api/rules/backtest', body, { siteId }));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'validation_failed') {
        onDraftErrors(fieldErrors(err.details, 'body.rules.0.'));
      }
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const run = (event: FormEvent) => {
    event.preventDefault();
    void replay(0);
  };

  return (
    <div className="card" data-testid="backtest">
      <h2>Backtest</h2>
      <p className="muted">
        Replays the recorded decisions of the period through the saved rules with this draft in place (the
        recorded default signals are kept; lists and custom rules are recomputed).
      </p>
      <form className="form-grid" onSubmit={run} aria-label="Backtest">
        <Field id="bt-from" label="From">
          <input id="bt-from" type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
        </Field>
        <Field id="bt-to" label="To (empty: now)">
          <input id="bt-to" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
        </Field>
        <div className="field">
          <button type="submit" className="button primary backtest-run" disabled={busy}>
            {busy ? 'Running…' : 'Run backtest'}
          </button>
        </div>
      </form>
      {busy ? <Loading label="Replaying decisions…" /> : null}
      <ErrorMessage error={error} title="Backtest failed" />
      {result && !busy ? (
        <>
          <BacktestResultView result={result} />
          <LabelQualityView name={draftName} quality={result.quality[draftName]} />
          <MatchedDecisions page={result.matched} busy={busy} onPage={(offset) => void replay(offset)} />
        </>
      ) : null}
    </div>
  );
}

/** Counts per key before and after the draft, as paired columns. */
function BeforeAfter({
  what,
  keys,
  before,
  after,
}: {
  what: string;
  keys: readonly string[];
  before: Record<string, number>;
  after: Record<string, number>;
}) {
  return (
    <div>
      <h3>{what} before and after</h3>
      <GroupedColumns
        keys={keys}
        label={`${what} before and after the draft`}
        series={[
          { name: 'before', className: 'series-before', counts: before },
          { name: 'after', className: 'series-after', counts: after },
        ]}
      />
    </div>
  );
}

function BacktestResultView({ result }: { result: BacktestResult }) {
  const transitions = Object.entries(result.transitions).sort((a, b) => b[1] - a[1]);
  return (
    <div className="backtest-result" data-testid="backtest-result">
      <dl className="stat-row">
        <div>
          <dt>Decisions replayed</dt>
          <dd data-testid="backtest-evaluated">{formatNumber(result.evaluated)}</dd>
        </div>
        <div>
          <dt>Action changed</dt>
          <dd>{formatNumber(result.changed)}</dd>
        </div>
        <div>
          <dt>Rule matches</dt>
          <dd>{formatNumber(Object.values(result.matches).reduce((a, b) => a + b, 0))}</dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>{formatMs(result.durationMs)}</dd>
        </div>
      </dl>
      <p className="muted">
        {formatDateTime(result.from)} – {formatDateTime(result.to)}
        {result.truncated ? ' · stopped at the event limit (newest first)' : ''}
      </p>
      {result.evaluated === 0 ? (
        <Empty>No recorded decisions in this period.</Empty>
      ) : (
        <div className="grid-2">
          <BeforeAfter
            what="Classifications"
            keys={CLASSIFICATIONS}
            before={result.before.classifications}
            after={result.after.classifications}
          />
          <BeforeAfter
            what="Actions"
            keys={ACTIONS}
            before={result.before.actions}
            after={result.after.actions}
          />
        </div>
      )}
      {transitions.length > 0 ? (
        <>
          <h3>Action changes</h3>
          <ul className="transitions">
            {transitions.map(([k, v]) => (
              <li key={k}>
                {k}: <strong>{formatNumber(v)}</strong>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {result.examples.length > 0 ? (
        <>
          <h3>Changed actions (sample)</h3>
          <Table columns={['Decision', 'Event', 'Before', 'After', 'Matched']}>
            {result.examples.map((e) => (
              <tr key={e.decisionId}>
                <td>
                  <Link href={href('decisions', e.decisionId)}>{formatDateTime(e.createdAt)}</Link>
                </td>
                <td>
                  {e.eventType} · {e.accountId}
                </td>
                <td>
                  {formatNumber(e.before.score)} <Pill value={e.before.action} />
                </td>
                <td>
                  {formatNumber(e.after.score)} <Pill value={e.after.action} />
                </td>
                <td>{e.matchedRules.join(', ') || '–'}</td>
              </tr>
            ))}
          </Table>
        </>
      ) : null}
    </div>
  );
}
