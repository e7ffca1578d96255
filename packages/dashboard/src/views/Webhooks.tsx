import { type FormEvent, useEffect, useState } from 'react';
import { api } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { Site, WebhookConfig, WebhookDelivery } from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { SecretValue } from '../components/CopyButton.tsx';
import { Field } from '../components/Field.tsx';
import { Link } from '../components/Link.tsx';
import { Pill } from '../components/Pill.tsx';
import { RequireSite } from '../components/RequireSite.tsx';
import { Empty, ErrorMessage, Loading, PlanRequired, SavedNotice } from '../components/Status.tsx';
import { Table } from '../components/Table.tsx';
import { useAction } from '../hooks/useAction.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { useInterval } from '../hooks/useInterval.ts';
import { formatDateTime, formatNumber } from '../lib/format.ts';
import { href } from '../lib/router.ts';

function Deliveries({
  deliveries,
  onRedeliver,
  busy,
}: {
  deliveries: WebhookDelivery[];
  onRedeliver: (d: WebhookDelivery) => void;
  busy: boolean;
}) {
  if (deliveries.length === 0)
    return <Empty>No deliveries yet. Send a test or wait for the next decision.</Empty>;
  return (
    <Table
      stacked
      rowActions
      testId="deliveries"
      columns={[
        'Created',
        'Status',
        { label: 'Attempts', numeric: true },
        { label: 'Last HTTP status', numeric: true },
        'Last error / next attempt',
        'Decision',
      ]}
    >
      {deliveries.map((d) => (
        <tr key={d.id} data-status={d.status} data-delivery-id={d.id}>
          <td data-label="Created">{formatDateTime(d.createdAt)}</td>
          <td data-label="Status">
            <Pill value={d.status} />
          </td>
          <td className="num" data-label="Attempts">
            {formatNumber(d.attempts)}
          </td>
          <td className="num" data-label="Last HTTP status">
            {d.lastStatusCode ?? '–'}
          </td>
          <td className="truncate" data-label="Last error / next attempt" title={d.lastError ?? ''}>
            {d.lastError ?? (d.nextAttemptAt ? `next ${formatDateTime(d.nextAttemptAt)}` : '–')}
          </td>
          <td data-label="Decision">
            <Link href={href('decisions', d.decisionId)}>open</Link>
          </td>
          <td className="actions">
            {d.status === 'failed' ? (
              <button type="button" className="button small" disabled={busy} onClick={() => onRedeliver(d)}>
                Redeliver
              </button>
            ) : null}
          </td>
        </tr>
      ))}
    </Table>
  );
}

function WebhookForm({ site }: { site: Site }) {
  const state = useAsync(
    (signal) => api.get<WebhookConfig>('/api/webhooks', { siteId: site.id }, signal),
    [site.id],
  );
  const config = state.data;
  const [url, setUrl] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [showSecret, setShowSecret] = useState(false);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [urlError, setUrlError] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | null>(null);

  // The form follows the saved settings, not every refresh of the deliveries: a refresh returns a
  // new object every 3 s and must not overwrite what the owner is typing.
  const loaded = config !== undefined;
  const savedUrl = config?.url ?? null;
  const savedEnabled = config?.enabled ?? true;
  useEffect(() => {
    if (loaded) {
      setUrl(savedUrl ?? '');
      setEnabled(savedUrl ? savedEnabled : true);
    }
  }, [loaded, savedUrl, savedEnabled]);

  // Deliveries change on their own: refresh them while the page is open.
  useInterval(
    async () => {
      try {
        const next = await api.get<WebhookConfig>('/api/webhooks', { siteId: site.id });
        state.setData(next);
      } catch {
        // The next refresh tries again; user actions show their own errors.
      }
    },
    3000,
    Boolean(config?.url),
  );

  const put = useAction(async (rotateSecret: boolean) => {
    setUrlError([]);
    try {
      const saved = await api.put<WebhookConfig>(
        '/api/webhooks',
        { url: url.trim(), enabled, ...(rotateSecret ? { rotateSecret } : {}) },
        { siteId: site.id },
      );
      state.setData(saved);
      setNotice(rotateSecret ? 'New secret in force; the old one no longer signs.' : 'Saved.');
      if (rotateSecret) setShowSecret(true);
      setConfirmRotate(false);
    } catch (err) {
      if (
        err instanceof ApiError &&
        (err.code === 'invalid_webhook_url' || err.code === 'validation_failed')
      ) {
        setUrlError([err.message]);
      }
      throw err;
    }
  });
  const test = useAction(async () => {
    const queued = await api.post<{ deliveryId: string }>('/api/webhooks/test', undefined, {
      siteId: site.id,
    });
    setNotice(`Test delivery ${queued.deliveryId.slice(0, 8)}… queued.`);
    state.reload();
  });
  const redeliver = useAction(async (d: WebhookDelivery) => {
    await api.post(`/api/webhooks/deliveries/${encodeURIComponent(d.id)}/redeliver`);
    setNotice('Redelivery queued.');
    state.reload();
  });

  if (state.loading && !config) return <Loading label="Loading the webhook…" />;
  if (state.error instanceof ApiError && state.error.isPlanRequired) {
    return <PlanRequired plan="Pro or Enterprise" feature="Webhooks" />;
  }
  if (state.error && !config) return <ErrorMessage error={state.error} title="Could not load the webhook" />;
  if (!config) return null;

  const save = (event: FormEvent) => {
    event.preventDefault();
    put.execute(false);
  };
  return (
    <>
      <form className="card" onSubmit={save} aria-label="Webhook configuration" noValidate>
        <h2>Endpoint</h2>
        <Field
          id="webhook-url"
          label="URL"
          errors={urlError}
          hint="Public HTTPS on port 443. Every decision is POSTed here as decision.created, signed (Stripe-compatible)."
        >
          <input
            id="webhook-url"
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com/hooks/warden"
          />
        </Field>
        <label className="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Enabled (disabling cancels queued deliveries)
        </label>
        {put.error && urlError.length === 0 ? <ErrorMessage error={put.error} title="Not saved" /> : null}
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={put.busy || !url.trim()}>
            Save
          </button>
          <button
            type="button"
            className="button"
            disabled={test.busy || !config.url || !config.enabled}
            onClick={() => test.execute()}
          >
            Send test
          </button>
          {notice ? <SavedNotice>{notice}</SavedNotice> : null}
        </div>
        <ErrorMessage error={test.error} title="Test not sent" />
      </form>
      <div className="card">
        <h2>Signing secret</h2>
        {config.secret ? (
          <>
            {showSecret ? (
              <SecretValue value={config.secret} label="Signing secret" />
            ) : (
              <p className="secret">
                <code className="secret-value">whsec_••••••••••••</code>
              </p>
            )}
            <div className="form-actions">
              <button
                type="button"
                className="button"
                aria-pressed={showSecret}
                onClick={() => setShowSecret((s) => !s)}
              >
                {showSecret ? 'Hide secret' : 'Reveal secret'}
              </button>
              <button
                type="button"
                className="button danger-outline"
                onClick={() => setConfirmRotate(true)}
                disabled={!config.url}
              >
                Rotate secret
              </button>
            </div>
          </>
        ) : (
          <Empty>Save a URL to get a signing secret.</Empty>
        )}
      </div>
      <div className="card">
        <div className="page-head">
          <h2>Latest deliveries</h2>
          <button type="button" className="button small" onClick={state.reload}>
            Refresh
          </button>
        </div>
        <ErrorMessage error={redeliver.error} title="Not redelivered" />
        <Deliveries
          deliveries={config.deliveries}
          onRedeliver={(d) => redeliver.execute(d)}
          busy={redeliver.busy}
        />
      </div>
      <ConfirmDialog
        open={confirmRotate}
        title="Rotate signing secret"
        confirmLabel="Rotate secret"
        busy={put.busy}
        error={put.error}
        onConfirm={() => put.execute(true)}
        onCancel={() => setConfirmRotate(false)}
      >
        Replace the signing secret now? Deliveries are signed with the new secret at once; update your
        receiver.
      </ConfirmDialog>
    </>
  );
}

export function WebhooksView() {
  const app = useApp();
  return (
    <section>
      <h1>Webhooks</h1>
      {!app.can('webhooks.manage') ? (
        <Empty>Only workspace owners manage webhooks.</Empty>
      ) : (
        <RequireSite>{(site) => <WebhookForm key={site.id} site={site} />}</RequireSite>
      )}
    </section>
  );
}
