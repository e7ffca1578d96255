import { type FormEvent, type ReactNode, useState } from 'react';
import { api } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { SsoConfig } from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { SecretValue } from '../components/CopyButton.tsx';
import { Field } from '../components/Field.tsx';
import { Select } from '../components/Select.tsx';
import {
  Empty,
  ErrorMessage,
  Loading,
  PlanRequired,
  SavedNotice,
  ValidationSummary,
} from '../components/Status.tsx';
import { useAction, useFormAction } from '../hooks/useAction.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { formatDateTime } from '../lib/format.ts';
import { type SsoFormValues, ssoBody } from '../lib/forms.ts';
import { ROLES, type Role } from '../lib/permissions.ts';

function toForm(c: SsoConfig): SsoFormValues {
  return {
    enabled: c.enabled,
    source: c.metadataUrl ? 'url' : 'fields',
    idpEntityId: c.idpEntityId ?? '',
    ssoUrl: c.ssoUrl ?? '',
    idpCertificate: c.idpCertificate ?? '',
    metadataXml: '',
    metadataUrl: c.metadataUrl ?? '',
    defaultRole: c.defaultRole,
    ssoRequired: c.ssoRequired,
  };
}

function ServiceProvider({ sp }: { sp: SsoConfig['sp'] }) {
  const rows: Array<[string, string]> = [
    ['SP entity id (Audience)', sp.entityId],
    ['ACS URL (Reply URL, HTTP-POST)', sp.acsUrl],
    ['SP metadata URL', sp.metadataUrl],
    ['Login URL (SP-initiated)', sp.loginUrl],
  ];
  return (
    <div className="card">
      <h2>Enter these at your identity provider</h2>
      <dl className="facts">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>
              <SecretValue value={v} label={k} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function SsoForm({
  workspaceId,
  config,
  onSaved,
}: {
  workspaceId: string;
  config: SsoConfig;
  onSaved: (c: SsoConfig) => void;
}) {
  const [form, setForm] = useState<SsoFormValues>(() => toForm(config));
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof SsoFormValues>(key: K, value: SsoFormValues[K]) => {
    setSaved(false);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const save = useFormAction(async () => {
    const next = await api.put<SsoConfig>(
      `/api/workspaces/${encodeURIComponent(workspaceId)}/sso`,
      ssoBody(form),
    );
    onSaved(next);
    setForm(toForm(next));
    setSaved(true);
  });
  const refresh = useAction(async () => {
    const next = await api.post<SsoConfig>(
      `/api/workspaces/${encodeURIComponent(workspaceId)}/sso/metadata/refresh`,
    );
    onSaved(next);
    setForm(toForm(next));
  });
  const errors = save.fieldErrors;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.execute();
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Single sign-on configuration" noValidate>
      <h2>Identity provider</h2>
      <p className="muted">
        {config.configured
          ? `Configured, last changed ${formatDateTime(config.updatedAt)}.`
          : 'Not configured yet.'}
      </p>
      <fieldset>
        <legend>Configure from</legend>
        <div className="inline-options">
          <label>
            <input
              type="radio"
              name="sso-source"
              checked={form.source === 'fields'}
              onChange={() => set('source', 'fields')}
            />
            Entity id, URL and certificate
          </label>
          <label>
            <input
              type="radio"
              name="sso-source"
              checked={form.source === 'metadata'}
              onChange={() => set('source', 'metadata')}
            />
            IdP metadata XML
          </label>
          <label>
            <input
              type="radio"
              name="sso-source"
              checked={form.source === 'url'}
              onChange={() => set('source', 'url')}
            />
            IdP metadata URL
          </label>
        </div>
      </fieldset>
      {form.source === 'url' ? (
        <Field
          id="sso-metadata-url"
          label="IdP metadata URL"
          errors={errors.metadataUrl}
          hint={
            config.metadataUrl
              ? `Read ${config.metadataFetchedAt ? formatDateTime(config.metadataFetchedAt) : 'never'}; read again when a sign-in starts a day later, or now with Refresh.${config.metadataError ? ` Last refresh failed: ${config.metadataError}` : ''}`
              : 'Read when you save; the entity id, SSO URL and signing certificates come from it.'
          }
        >
          <input
            id="sso-metadata-url"
            type="url"
            value={form.metadataUrl}
            onChange={(e) => set('metadataUrl', e.target.value)}
          />
        </Field>
      ) : null}
      {form.source === 'url' && config.metadataUrl ? (
        <button
          type="button"
          className="button small"
          disabled={refresh.busy}
          onClick={() => refresh.execute()}
        >
          Refresh metadata now
        </button>
      ) : null}
      <ErrorMessage error={refresh.error} title="Not refreshed" />
      {form.source === 'url' ? null : form.source === 'metadata' ? (
        <Field id="sso-metadata" label="IdP metadata XML" errors={errors.metadataXml}>
          <textarea
            id="sso-metadata"
            className="editor"
            rows={8}
            value={form.metadataXml}
            onChange={(e) => set('metadataXml', e.target.value)}
          />
        </Field>
      ) : (
        <>
          <Field id="sso-entity" label="IdP entity id (Issuer)" errors={errors.idpEntityId}>
            <input
              id="sso-entity"
              value={form.idpEntityId}
              onChange={(e) => set('idpEntityId', e.target.value)}
            />
          </Field>
          <Field id="sso-url" label="IdP single sign-on URL (HTTP-Redirect)" errors={errors.ssoUrl}>
            <input
              id="sso-url"
              type="url"
              value={form.ssoUrl}
              onChange={(e) => set('ssoUrl', e.target.value)}
            />
          </Field>
          <Field id="sso-cert" label="IdP signing certificate (PEM)" errors={errors.idpCertificate}>
            <textarea
              id="sso-cert"
              className="editor"
              rows={6}
              value={form.idpCertificate}
              onChange={(e) => set('idpCertificate', e.target.value)}
            />
          </Field>
        </>
      )}
      <div className="form-grid">
        <Field id="sso-role" label="Role of new users (just-in-time)" errors={errors.defaultRole}>
          <Select
            id="sso-role"
            value={form.defaultRole}
            options={ROLES}
            onChange={(v) => set('defaultRole', v as Role)}
          />
        </Field>
      </div>
      <label className="check">
        <input type="checkbox" checked={form.enabled} onChange={(e) => set('enabled', e.target.checked)} />
        Single sign-on enabled
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={form.ssoRequired}
          onChange={(e) => set('ssoRequired', e.target.checked)}
        />
        Require single sign-on (password sign-in refused to non-owners; owners keep it as break-glass)
      </label>
      <ValidationSummary errors={Object.entries(errors)} />
      {save.error && !(save.error instanceof ApiError && save.error.code === 'validation_failed') ? (
        <ErrorMessage error={save.error} title="Not saved" />
      ) : null}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={save.busy}>
          Save
        </button>
        {saved ? <SavedNotice>Saved.</SavedNotice> : null}
      </div>
    </form>
  );
}

export function SsoView() {
  const app = useApp();
  const workspaceId = app.workspace?.id;
  const allowed = app.can('sso.manage');
  const state = useAsync(
    (signal) =>
      workspaceId && allowed
        ? api.get<SsoConfig>(`/api/workspaces/${encodeURIComponent(workspaceId)}/sso`, undefined, signal)
        : Promise.resolve(undefined),
    [workspaceId, allowed],
  );
  let body: ReactNode;
  if (!allowed) body = <Empty>Only workspace owners configure single sign-on.</Empty>;
  else if (state.loading) body = <Loading label="Loading the configuration…" />;
  else if (state.error instanceof ApiError && state.error.isPlanRequired) {
    body = <PlanRequired plan="Enterprise" feature="SAML single sign-on" />;
  } else if (state.error instanceof ApiError && state.error.isNotFound) {
    body = (
      <Empty>
        Single sign-on is not available on this server ({state.error.message}). Update Warden to configure
        SAML.
      </Empty>
    );
  } else if (state.error)
    body = <ErrorMessage error={state.error} title="Could not load the configuration" />;
  else if (state.data && workspaceId) {
    body = (
      <>
        <ServiceProvider sp={state.data.sp} />
        <SsoForm workspaceId={workspaceId} config={state.data} onSaved={(c) => state.setData(c)} />
        <div className="card">
          <h2>Signing in</h2>
          <p>
            Members sign in with <strong>Sign in with SSO</strong> on the sign-in page and this workspace id:
          </p>
          <SecretValue value={workspaceId} label="Workspace id" />
        </div>
      </>
    );
  }
  return (
    <section>
      <h1>Single sign-on (SAML 2.0)</h1>
      {body}
    </section>
  );
}
