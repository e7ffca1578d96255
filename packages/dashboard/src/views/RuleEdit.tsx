import { type FormEvent, useCallback, useMemo, useState } from 'react';
import { api } from '../api/client.ts';
import { ApiError, fieldErrors } from '../api/errors.ts';
import {
  ACTIONS,
  type CatalogueSignal,
  EVENT_TYPES,
  type EventType,
  type List,
  type Rule,
  type Site,
} from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { BacktestPanel } from '../components/Backtest.tsx';
import { ExpressionEditor } from '../components/ExpressionEditor.tsx';
import { Field } from '../components/Field.tsx';
import { Link } from '../components/Link.tsx';
import { RequireSite } from '../components/RequireSite.tsx';
import {
  RuleStatsPanel,
  SignalCatalogue,
  TemplatePicker,
  TestOnDecision,
} from '../components/RuleHelpers.tsx';
import { Select } from '../components/Select.tsx';
import { ErrorMessage, Loading, SavedNotice, ValidationSummary } from '../components/Status.tsx';
import { useAsync } from '../hooks/useAsync.ts';
import { navigate } from '../hooks/useRoute.ts';
import { completionSource } from '../lib/cel-completions.ts';
import { href } from '../lib/router.ts';
import { BLANK, type FormValues, toDraft, toForm } from '../lib/rule-form.ts';

function RuleForm({ site, rule }: { site: Site; rule: Rule | null }) {
  const app = useApp();
  const canWrite = app.can('rules.write');
  const [form, setForm] = useState<FormValues>(() => toForm(rule ?? BLANK));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setSaved(false);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const draft = useCallback(() => toDraft(form), [form]);
  // Autocomplete: the built-in signals and the site's list names.
  const helpers = useAsync(
    async (signal) => {
      const [catalogue, lists] = await Promise.all([
        api.get<{ signals: CatalogueSignal[] }>('/api/signals', undefined, signal),
        api.get<{ lists: List[] }>('/api/lists', { siteId: site.id }, signal),
      ]);
      return { signals: catalogue.signals, lists: lists.lists.map((l) => l.name) };
    },
    [site.id],
  );
  const completions = useMemo(
    () => completionSource(helpers.data?.signals.map((s) => s.name) ?? [], helpers.data?.lists ?? []),
    [helpers.data],
  );
  const testDecision = new URLSearchParams(location.search).get('decision') ?? '';

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setErrors({});
    try {
      const body = toDraft(form);
      const next = rule
        ? await api.patch<Rule>(`/api/rules/${encodeURIComponent(rule.id)}`, body)
        : await api.post<Rule>('/api/rules', body, { siteId: site.id });
      setSaved(true);
      if (!rule) navigate(href('rules', next.id), { replace: true });
      else setForm(toForm(next));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'validation_failed' && err.details.length > 0) {
        setErrors(fieldErrors(err.details));
      } else setError(err);
    } finally {
      setBusy(false);
    }
  };

  const toggleEvent = (t: EventType, on: boolean) =>
    set('eventTypes', on ? [...form.eventTypes, t] : form.eventTypes.filter((x) => x !== t));
  const other = Object.entries(errors).filter(
    ([k]) =>
      !['name', 'description', 'expression', 'score', 'action', 'priority', 'eventTypes', 'mode'].includes(k),
  );

  return (
    <>
      <form className="card" onSubmit={save} aria-label="Rule" noValidate>
        <fieldset disabled={!canWrite} className="plain-fieldset">
          <div className="form-grid">
            <Field
              id="rule-name"
              label="Name"
              errors={errors.name}
              hint="Letters, digits, _ . : - (signal custom:<name>)"
            >
              <input
                id="rule-name"
                value={form.name}
                onChange={(e) => set('name', e.target.value)}
                required
              />
            </Field>
            <Field
              id="rule-priority"
              label="Priority"
              errors={errors.priority}
              hint="Higher runs first (−1000…1000)"
            >
              <input
                id="rule-priority"
                type="number"
                value={form.priority}
                onChange={(e) => set('priority', e.target.value)}
              />
            </Field>
            <div className="field">
              <span className="field-label" aria-hidden="true">
                Mode
              </span>
              <fieldset className="segmented">
                <legend className="visually-hidden">Mode</legend>
                {(['live', 'shadow'] as const).map((mode) => (
                  <button
                    key={mode}
                    type="button"
                    aria-pressed={form.mode === mode}
                    onClick={() => set('mode', mode)}
                  >
                    {mode}
                  </button>
                ))}
              </fieldset>
              <label className="check">
                <input
                  type="checkbox"
                  checked={form.enabled}
                  onChange={(e) => set('enabled', e.target.checked)}
                />
                Enabled
              </label>
            </div>
          </div>
          <Field id="rule-description" label="Description" errors={errors.description}>
            <input
              id="rule-description"
              value={form.description}
              onChange={(e) => set('description', e.target.value)}
            />
          </Field>
          {canWrite ? (
            <TemplatePicker
              onPick={(t) => {
                setSaved(false);
                setForm((f) => ({
                  ...f,
                  name: f.name || t.name,
                  expression: t.expression,
                  score: t.score === null ? '' : String(t.score),
                  action: t.action as FormValues['action'],
                }));
              }}
            />
          ) : null}
          <ExpressionEditor
            id="rule-expression"
            value={form.expression}
            onChange={(v) => set('expression', v)}
            errors={errors.expression}
            readOnly={!canWrite}
            completions={completions}
          />
          <div className="form-grid">
            <Field
              id="rule-score"
              label="Score"
              errors={errors.score}
              hint="−100…100 added as a signal; empty for none"
            >
              <input
                id="rule-score"
                type="number"
                value={form.score}
                onChange={(e) => set('score', e.target.value)}
              />
            </Field>
            <Field id="rule-action" label="Forced action" errors={errors.action}>
              <Select
                id="rule-action"
                value={form.action ?? ''}
                options={ACTIONS}
                none="None"
                onChange={(v) => set('action', (v || null) as FormValues['action'])}
              />
            </Field>
            <fieldset>
              <legend>Event types (none: all)</legend>
              <div className="inline-options">
                {EVENT_TYPES.map((t) => (
                  <label key={t}>
                    <input
                      type="checkbox"
                      checked={form.eventTypes.includes(t)}
                      onChange={(e) => toggleEvent(t, e.target.checked)}
                    />
                    {t.replace(/_/g, ' ')}
                  </label>
                ))}
              </div>
              {errors.eventTypes ? (
                <div className="field-errors" role="alert">
                  {errors.eventTypes.join(' ')}
                </div>
              ) : null}
            </fieldset>
          </div>
          <ValidationSummary errors={other} />
          <ErrorMessage error={error} title="Not saved" />
          {canWrite ? (
            <div className="form-actions">
              <button type="submit" className="button primary" disabled={busy}>
                {busy ? 'Saving…' : rule ? 'Save rule' : 'Create rule'}
              </button>
              <Link className="button" href={href('rules')}>
                Back to rules
              </Link>
              {saved ? <SavedNotice>Saved.</SavedNotice> : null}
            </div>
          ) : (
            <p className="muted">Your role can read rules but not change them.</p>
          )}
        </fieldset>
      </form>
      {canWrite ? (
        <TestOnDecision
          siteId={site.id}
          draft={draft}
          initialDecision={testDecision}
          onDraftErrors={setErrors}
        />
      ) : null}
      {canWrite ? <BacktestPanel siteId={site.id} draft={draft} onDraftErrors={setErrors} /> : null}
      {rule ? <RuleStatsPanel id={rule.id} /> : null}
      <SignalCatalogue signals={helpers.data?.signals} />
    </>
  );
}

function LoadedRule({ site, id }: { site: Site; id: string }) {
  const state = useAsync(
    (signal) => api.get<Rule>(`/api/rules/${encodeURIComponent(id)}`, undefined, signal),
    [id],
  );
  if (state.loading) return <Loading label="Loading the rule…" />;
  if (state.error || !state.data) return <ErrorMessage error={state.error} title="Could not load the rule" />;
  return <RuleForm key={state.data.id} site={site} rule={state.data} />;
}

export function RuleEditView({ id }: { id: string | null }) {
  return (
    <section>
      <p className="breadcrumbs">
        <Link href={href('rules')}>Rules</Link> / {id ? 'edit' : 'new'}
      </p>
      <h1>{id ? 'Rule' : 'New rule'}</h1>
      <RequireSite>
        {(site) => (id ? <LoadedRule site={site} id={id} /> : <RuleForm site={site} rule={null} />)}
      </RequireSite>
    </section>
  );
}
