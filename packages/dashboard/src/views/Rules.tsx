import { useState } from 'react';
import { api } from '../api/client.ts';
import type { Rule, RuleHits, RuleHitsAnswer, Site } from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { Link } from '../components/Link.tsx';
import { Pill } from '../components/Pill.tsx';
import { RequireSite } from '../components/RequireSite.tsx';
import { Sparkline } from '../components/Sparkline.tsx';
import { Empty, ErrorMessage, Loading } from '../components/Status.tsx';
import { Table } from '../components/Table.tsx';
import { useAction } from '../hooks/useAction.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { decisionsHref } from '../lib/decision-filters.ts';
import { formatNumber, formatSigned } from '../lib/format.ts';
import { href } from '../lib/router.ts';

/** Live and shadow matches of the last 7 days, each count linked to those decisions. */
function HitsCell({
  rule,
  hits,
  from,
}: {
  rule: Rule;
  hits: RuleHits | undefined;
  from: string | undefined;
}) {
  if (!hits) return <span className="muted">–</span>;
  return (
    <div data-testid={`hits-${rule.name}`}>
      <Link href={decisionsHref({ signal: `custom:${rule.name}`, match: 'live', from: from ?? '' })}>
        {formatNumber(hits.live)} live
      </Link>
      {' · '}
      <Link href={decisionsHref({ signal: `custom:${rule.name}`, match: 'shadow', from: from ?? '' })}>
        {formatNumber(hits.shadow)} shadow
      </Link>
      <Sparkline
        series={hits.series}
        label={`Daily matches of ${rule.name}: ${hits.live} live, ${hits.shadow} shadow`}
      />
    </div>
  );
}

function RuleRow({
  rule,
  hits,
  hitsFrom,
  canWrite,
  onChanged,
  onDelete,
}: {
  rule: Rule;
  hits: RuleHits | undefined;
  hitsFrom: string | undefined;
  canWrite: boolean;
  onChanged: (rule: Rule) => void;
  onDelete: (rule: Rule) => void;
}) {
  const patch = useAction(async (body: Partial<Rule>) => {
    onChanged(await api.patch<Rule>(`/api/rules/${encodeURIComponent(rule.id)}`, body));
  });
  return (
    <tr>
      <td data-label="Name">
        <div>
          <Link href={href('rules', rule.id)}>
            <code>{rule.name}</code>
          </Link>
          {rule.description ? <div className="muted">{rule.description}</div> : null}
          {patch.error ? <ErrorMessage error={patch.error} /> : null}
        </div>
      </td>
      <td data-label="Expression">
        <code className="truncate expr-cell" title={rule.expression}>
          {rule.expression}
        </code>
      </td>
      <td data-label="Effect">
        {rule.score !== null ? formatSigned(rule.score) : null}{' '}
        {rule.action ? <Pill value={rule.action} /> : null}
      </td>
      <td data-label="Hits (7 days)">
        <HitsCell rule={rule} hits={hits} from={hitsFrom} />
      </td>
      <td className="num" data-label="Priority">
        {rule.priority}
      </td>
      <td data-label="Mode">
        <fieldset className="segmented">
          <legend className="visually-hidden">{`Mode of ${rule.name}`}</legend>
          {(['live', 'shadow'] as const).map((mode) => (
            <button
              key={mode}
              type="button"
              aria-pressed={rule.mode === mode}
              disabled={!canWrite || patch.busy}
              onClick={() => rule.mode !== mode && patch.execute({ mode })}
            >
              {mode}
            </button>
          ))}
        </fieldset>
      </td>
      <td data-label="Enabled">
        <label className="switch">
          <input
            type="checkbox"
            checked={rule.enabled}
            disabled={!canWrite || patch.busy}
            onChange={(e) => patch.execute({ enabled: e.target.checked })}
          />
          <span>{rule.enabled ? 'Enabled' : 'Disabled'}</span>
        </label>
      </td>
      <td className="actions">
        <Link className="button small" href={href('rules', rule.id)}>
          {canWrite ? 'Edit' : 'View'}
        </Link>
        {canWrite ? (
          <button type="button" className="button small danger-outline" onClick={() => onDelete(rule)}>
            Delete
          </button>
        ) : null}
      </td>
    </tr>
  );
}

function RuleList({ site }: { site: Site }) {
  const app = useApp();
  const canWrite = app.can('rules.write');
  const state = useAsync(
    (signal) => api.get<{ rules: Rule[] }>('/api/rules', { siteId: site.id }, signal),
    [site.id],
  );
  const hits = useAsync(
    (signal) => api.get<RuleHitsAnswer>('/api/rules/hits', { siteId: site.id, buckets: '7' }, signal),
    [site.id],
  );
  const [deleting, setDeleting] = useState<Rule | null>(null);
  const remove = useAction(async (rule: Rule) => {
    await api.delete(`/api/rules/${encodeURIComponent(rule.id)}`);
    setDeleting(null);
    state.reload();
  });
  const rules = state.data?.rules ?? [];
  const replace = (next: Rule) => state.setData({ rules: rules.map((r) => (r.id === next.id ? next : r)) });
  return (
    <>
      <div className="page-head">
        <h1>Rules</h1>
        {canWrite ? (
          <Link className="button primary" href={href('rules', 'new')}>
            New rule
          </Link>
        ) : null}
      </div>
      <p className="muted">
        CEL expressions evaluated after the default signals, highest priority first. Shadow rules are recorded
        but change nothing.
      </p>
      {state.loading && !state.data ? <Loading label="Loading rules…" /> : null}
      <ErrorMessage error={state.error} title="Could not load the rules" />
      {state.data && rules.length === 0 ? (
        <Empty>
          No custom rules yet.{canWrite ? ' Create one to add your own signal or force an action.' : ''}
        </Empty>
      ) : null}
      {rules.length > 0 ? (
        <Table
          stacked
          rowActions
          columns={[
            'Name',
            'Expression',
            'Effect',
            'Hits (7 days)',
            { label: 'Priority', numeric: true },
            'Mode',
            'Enabled',
          ]}
        >
          {rules.map((rule) => (
            <RuleRow
              key={rule.id}
              rule={rule}
              hits={
                hits.data ? (hits.data.rules[rule.name] ?? { live: 0, shadow: 0, series: [] }) : undefined
              }
              hitsFrom={hits.data?.from}
              canWrite={canWrite}
              onChanged={replace}
              onDelete={setDeleting}
            />
          ))}
        </Table>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete rule"
        confirmLabel="Delete"
        busy={remove.busy}
        error={remove.error}
        onConfirm={() => deleting && remove.execute(deleting)}
        onCancel={() => setDeleting(null)}
      >
        Delete the rule <code>{deleting?.name}</code>? Decisions already made keep their signals.
      </ConfirmDialog>
    </>
  );
}

export function RulesView() {
  return (
    <section>
      <RequireSite>{(site) => <RuleList key={site.id} site={site} />}</RequireSite>
    </section>
  );
}
