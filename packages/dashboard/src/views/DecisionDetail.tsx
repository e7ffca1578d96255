import type { ReactNode } from 'react';
import { api } from '../api/client.ts';
import type { DecisionDetail } from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { AddToList, listValuesOf } from '../components/AddToList.tsx';
import { ClusterSummary } from '../components/ClusterSummary.tsx';
import { EffectiveLabel } from '../components/EffectiveLabel.tsx';
import { EntityLink } from '../components/EntitySummary.tsx';
import { Link } from '../components/Link.tsx';
import { Pill } from '../components/Pill.tsx';
import { ShadowHits } from '../components/ShadowHits.tsx';
import { SignalBars } from '../components/SignalBars.tsx';
import { ErrorMessage, Loading } from '../components/Status.tsx';
import { useAction } from '../hooks/useAction.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { type EntityKind, emailDomainOf, networkOf } from '../lib/entities.ts';
import { formatDateTime, formatMs, formatNumber } from '../lib/format.ts';
import { href } from '../lib/router.ts';
import { shadowHitsOf } from '../lib/shadow-hits.ts';

function Facts({ d }: { d: DecisionDetail }) {
  const entity = (kind: EntityKind, value: string | null, label?: string) =>
    value ? (
      <EntityLink kind={kind} value={value} siteId={d.siteId} summary {...(label ? { label } : {})} />
    ) : (
      '–'
    );
  const network = networkOf(d.ipAddress);
  const subnet = typeof d.features.subnet === 'string' && d.features.subnet ? d.features.subnet : network;
  const domain = d.email ? emailDomainOf(d.email) : null;
  const rows: Array<[string, ReactNode]> = [
    ['Time', formatDateTime(d.createdAt)],
    ['Event', d.eventType.replace(/_/g, ' ')],
    ['Account', entity('accountId', d.accountId)],
    ['E-mail', entity('email', d.email)],
    ['E-mail domain', entity('emailDomain', domain)],
    ['IP address', entity('ip', d.ipAddress)],
    ['Network', network ? entity('ipPrefix', network, subnet ?? network) : '–'],
    ['Device id', d.deviceId ? entity('deviceId', d.deviceId) : '– (no device evidence)'],
    ['User agent', d.userAgent || '–'],
    ['Order amount', d.orderAmount === null ? '–' : formatNumber(d.orderAmount, 2)],
    ['Payment hash', entity('paymentHash', d.paymentHash)],
    ['Promo code', entity('promoCode', d.promoCode)],
    ['Cluster', entity('clusterId', d.clusterId)],
    ['Risk level', d.riskLevel],
    ['Scoring time', formatMs(d.decisionMs)],
    ['Rule set', d.rulesetVersion],
    ['Decision id', d.id],
    [
      'Browser decision',
      d.browserDecisionId ? (
        <Link key="browser-decision" href={href('decisions', d.browserDecisionId)}>
          {d.browserDecisionId}
        </Link>
      ) : (
        '–'
      ),
    ],
  ];
  return (
    <dl className="facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function LabelButtons({ d, onLabeled }: { d: DecisionDetail; onLabeled: (d: DecisionDetail) => void }) {
  const app = useApp();
  const allowed = app.can('decisions.label');
  const { execute, busy, error } = useAction(async (label: 'fraud' | 'legit') => {
    onLabeled(await api.post<DecisionDetail>(`/api/decisions/${encodeURIComponent(d.id)}/label`, { label }));
  });
  return (
    <div className="label-buttons">
      <span>
        Label: <EffectiveLabel d={d} />
        {d.labeledAt ? <span className="muted"> {formatDateTime(d.labeledAt)}</span> : null}
      </span>
      {allowed ? (
        <>
          <button
            type="button"
            className="button danger-outline"
            aria-pressed={d.label === 'fraud'}
            disabled={busy}
            onClick={() => execute('fraud')}
          >
            Mark fraud
          </button>
          <button
            type="button"
            className="button success-outline"
            aria-pressed={d.label === 'legit'}
            disabled={busy}
            onClick={() => execute('legit')}
          >
            Mark legit
          </button>
        </>
      ) : null}
      {app.can('rules.write') ? (
        <Link className="button" href={`${href('rules', 'new')}?decision=${encodeURIComponent(d.id)}`}>
          Test a rule on this decision
        </Link>
      ) : null}
      {allowed ? null : <span className="muted">Viewers cannot label decisions.</span>}
      <ErrorMessage error={error} title="Label not saved" />
    </div>
  );
}

export function DecisionDetailView({ id }: { id: string }) {
  const state = useAsync(
    (signal) => api.get<DecisionDetail>(`/api/decisions/${encodeURIComponent(id)}`, undefined, signal),
    [id],
  );
  const d = state.data;
  return (
    <section>
      <p className="breadcrumbs">
        <Link href={href('decisions')}>Decisions</Link> / <span>{id}</span>
      </p>
      {state.loading && !d ? <Loading label="Loading the decision…" /> : null}
      <ErrorMessage error={state.error} title="Could not load the decision" />
      {d ? (
        <>
          <div className="decision-head">
            <h1>
              Score <span data-testid="headline-score">{formatNumber(d.riskScore)}</span>
            </h1>
            <Pill value={d.classification} />
            <Pill value={d.action} />
            <Pill value={d.riskLevel} kind={`level-${d.riskLevel}`} />
          </div>
          <LabelButtons d={d} onLabeled={(next) => state.setData(next)} />
          <AddToList siteId={d.siteId} values={listValuesOf(d)} />
          <div className="grid-2 grid-detail">
            <div className="card">
              <h2>Signals</h2>
              <SignalBars signals={d.signals} riskScore={d.riskScore} />
              <ShadowHits hits={shadowHitsOf(d.features)} />
            </div>
            <div className="card">
              <h2>Event</h2>
              <Facts d={d} />
            </div>
          </div>
          <div className="card">
            <h2>Identity cluster</h2>
            <ClusterSummary identity={d.response.identity} />
          </div>
          <div className="card">
            <h2>Evidence and features</h2>
            <p className="muted">{retentionNote(d.retention)}</p>
            <details>
              <summary>Evidence (as received)</summary>
              <pre className="json">{JSON.stringify(d.evidence, null, 2)}</pre>
            </details>
            <details>
              <summary>Features (what the engine computed)</summary>
              <pre className="json">{JSON.stringify(d.features, null, 2)}</pre>
            </details>
            <details>
              <summary>Response (the decision as answered)</summary>
              <pre className="json">{JSON.stringify(d.response, null, 2)}</pre>
            </details>
          </div>
        </>
      ) : null}
    </section>
  );
}

/** What is kept of this decision how long (the server's retention settings). */
export function retentionNote(retention: DecisionDetail['retention'], now = Date.now()): string {
  const day = (iso: string) => iso.slice(0, 10);
  const evidence =
    retention.evidenceUntil === null
      ? 'Evidence is kept for ever'
      : Date.parse(retention.evidenceUntil) <= now
        ? `Evidence was dropped on ${day(retention.evidenceUntil)} (evidence retention)`
        : `Evidence is kept until ${day(retention.evidenceUntil)}`;
  const decision =
    retention.keptUntil === null
      ? 'the decision, its features and label for ever.'
      : `the decision, its features and label until ${day(retention.keptUntil)}.`;
  return `${evidence}; ${decision}`;
}
