import { type FormEvent, useState } from 'react';
import { api } from '../api/client.ts';
import { ApiError, fieldErrors } from '../api/errors.ts';
import type { CatalogueSignal, RuleDraft, RuleStats, RuleTestResult } from '../api/types.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { RULE_TEMPLATES } from '../lib/cel-completions.ts';
import { decisionsHref } from '../lib/decision-filters.ts';
import { formatNumber, formatPercent, formatSigned, fromLocalInput } from '../lib/format.ts';
import { href } from '../lib/router.ts';
import { Field } from './Field.tsx';
import { Link } from './Link.tsx';
import { Pill } from './Pill.tsx';
import { ErrorMessage, Loading } from './Status.tsx';
import { Table } from './Table.tsx';

export type Template = (typeof RULE_TEMPLATES)[number];

/** "Start from a template": fills the expression and the effect of a common rule. */
export function TemplatePicker({ onPick }: { onPick: (template: Template) => void }) {
  return (
    <div className="field">
      <label htmlFor="rule-template">Start from a template</label>
      <select
        id="rule-template"
        value=""
        onChange={(e) => {
          const t = RULE_TEMPLATES.find((x) => x.name === e.target.value);
          if (t) onPick(t);
        }}
      >
        <option value="">Choose a template…</option>
        {RULE_TEMPLATES.map((t) => (
          <option key={t.name} value={t.name}>
            {t.title}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The built-in signals (GET /api/signals), filterable; each links to the decisions it fired on. */
export function SignalCatalogue({ signals }: { signals: CatalogueSignal[] | undefined }) {
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const shown = (signals ?? []).filter(
    (s) => q === '' || s.name.includes(q) || s.family.includes(q) || s.description.toLowerCase().includes(q),
  );
  return (
    <details className="card" data-testid="signal-catalogue">
      <summary>
        <h2 className="inline-heading">Built-in signals ({formatNumber(signals?.length ?? 0)})</h2>
      </summary>
      <p className="muted">
        Every default signal, its family and default score. In a rule: <code>signals.&lt;name&gt;</code> is
        its score when it fired (<code>has(signals.name)</code>).
      </p>
      <Field id="catalogue-filter" label="Filter">
        <input id="catalogue-filter" value={query} onChange={(e) => setQuery(e.target.value)} />
      </Field>
      <div className="catalogue">
        <Table columns={['Signal', 'Family', { label: 'Score', numeric: true }, 'Description']}>
          {shown.map((s) => (
            <tr key={s.name}>
              <td>
                <Link href={decisionsHref({ signal: s.name })}>
                  <code>{s.name}</code>
                </Link>
                {s.hard ? <span className="muted"> (hard evidence)</span> : null}
              </td>
              <td>{s.family}</td>
              <td className="num">{formatSigned(s.score)}</td>
              <td>{s.description}</td>
            </tr>
          ))}
        </Table>
      </div>
    </details>
  );
}

/** "Test on a decision": the draft evaluated on one stored decision (POST /api/rules/test). */
export function TestOnDecision({
  siteId,
  draft,
  initialDecision,
  onDraftErrors,
}: {
  siteId: string;
  draft: () => RuleDraft;
  initialDecision: string;
  onDraftErrors: (errors: Record<string, string[]>) => void;
}) {
  const [decisionId, setDecisionId] = useState(initialDecision);
  const [result, setResult] = useState<RuleTestResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    onDraftErrors({});
    try {
      setResult(
        await api.post<RuleTestResult>(
          '/api/rules/test',
          { decisionId: decisionId.trim(), rule: draft() },
          { siteId },
        ),
      );
    } catch (err) {
      if (err instanceof ApiError && err.code === 'validation_failed')
        onDraftErrors(fieldErrors(err.details, 'body.rule.'));
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="card" data-testid="rule-test">
      <h2>Test on a decision</h2>
      <p className="muted">
        Evaluates the draft (unsaved) on one stored decision, with the saved rules and lists, as a backtest of
        one. Copy a decision id from its page (or open this editor from a decision).
      </p>
      <form className="form-grid" onSubmit={run} aria-label="Test on a decision">
        <Field id="test-decision" label="Decision id">
          <input
            id="test-decision"
            value={decisionId}
            onChange={(e) => setDecisionId(e.target.value)}
            spellCheck={false}
            required
          />
        </Field>
        <div className="field">
          <button type="submit" className="button primary" disabled={busy || decisionId.trim() === ''}>
            {busy ? 'Testing…' : 'Test rule'}
          </button>
        </div>
      </form>
      <ErrorMessage error={error} title="Test failed" />
      {result ? (
        <div className="rule-test-result" data-testid="rule-test-result" role="status">
          <p>
            <strong data-testid="rule-test-verdict">
              {!result.applies
                ? 'Not evaluated: the decision’s event type is not among the rule’s.'
                : result.error
                  ? 'Error'
                  : result.matched
                    ? 'Matches'
                    : 'Does not match'}
            </strong>{' '}
            <Link href={href('decisions', result.decisionId)}>this decision</Link>
            {result.mode === 'shadow' && result.matched ? ' (shadow: recorded, changes nothing)' : ''}
          </p>
          {result.error ? <p className="field-errors">{result.error}</p> : null}
          <p>
            Score {formatNumber(result.before.score)} <Pill value={result.before.action} /> →{' '}
            <span data-testid="rule-test-after">{formatNumber(result.after.score)}</span>{' '}
            <Pill value={result.after.action} />
          </p>
        </div>
      ) : null}
    </div>
  );
}

/** The saved rule's precision and recall against labels over a chosen period (default: since created). */
export function RuleStatsPanel({ id }: { id: string }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [applied, setApplied] = useState<{ from?: string; to?: string }>({});
  const state = useAsync(
    (signal) => api.get<RuleStats>(`/api/rules/${encodeURIComponent(id)}/stats`, applied, signal),
    [id, applied],
  );
  const s = state.data;
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const f = fromLocalInput(from);
    const t = fromLocalInput(to);
    setApplied({ ...(f ? { from: f } : {}), ...(t ? { to: t } : {}) });
  };
  return (
    <div className="card" data-testid="rule-stats">
      <h2>Quality against labels</h2>
      <p className="muted">
        From what decisions recorded when they were made (empty From: since the rule was created). To judge
        the rule as written on older decisions, run a backtest.
      </p>
      <form className="form-grid" onSubmit={apply} aria-label="Statistics period">
        <Field id="stats-from" label="From">
          <input
            id="stats-from"
            type="datetime-local"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
        </Field>
        <Field id="stats-to" label="To (empty: now)">
          <input id="stats-to" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
        </Field>
        <div className="field">
          <button type="submit" className="button">
            Show
          </button>
        </div>
      </form>
      {state.loading ? <Loading /> : null}
      <ErrorMessage error={state.error} />
      {s ? (
        <dl className="stat-row">
          <div>
            <dt>Precision</dt>
            <dd>{formatPercent(s.precision)}</dd>
          </div>
          <div>
            <dt>Recall</dt>
            <dd>{formatPercent(s.recall)}</dd>
          </div>
          <div>
            <dt>Labeled decisions</dt>
            <dd>{formatNumber(s.labeled)}</dd>
          </div>
          <div>
            <dt>Matches (30 days)</dt>
            <dd>{formatNumber(s.matchesLast30Days)}</dd>
          </div>
          <div>
            <dt>Timeouts (30 days)</dt>
            <dd>{formatNumber(s.timeoutsLast30Days)}</dd>
          </div>
        </dl>
      ) : null}
    </div>
  );
}
