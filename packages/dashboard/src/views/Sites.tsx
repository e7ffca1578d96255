import { type FormEvent, useState } from 'react';
import { api } from '../api/client.ts';
import type { CreatedSite, RotatedKeys, Site } from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { SecretValue } from '../components/CopyButton.tsx';
import { Field } from '../components/Field.tsx';
import { Empty, ErrorMessage, Loading } from '../components/Status.tsx';
import { useAction, useFormAction } from '../hooks/useAction.ts';
import { formatDateTime } from '../lib/format.ts';

/** The secret key of a new or rotated site: shown once, then gone from the page. */
function OneTimeSecret({
  keys,
  onDone,
}: {
  keys: { siteKey: string; secretKey: string };
  onDone: () => void;
}) {
  return (
    <div className="status status-info" data-testid="one-time-secret">
      <p>
        <strong>Store the secret key now.</strong> It is shown only this once (only a hash is kept). Put it in
        your backend; the site key goes into your pages.
      </p>
      <p className="field-label">Site key</p>
      <SecretValue value={keys.siteKey} label="Site key" />
      <p className="field-label">Secret key</p>
      <SecretValue value={keys.secretKey} label="Secret key" />
      <button type="button" className="button" onClick={onDone}>
        I have stored it
      </button>
    </div>
  );
}

function OriginsEditor({ site, onSaved }: { site: Site; onSaved: (site: Site) => void }) {
  const app = useApp();
  const allowed = app.can('site.update');
  const [origins, setOrigins] = useState<string[]>(site.allowedOrigins);
  const [adding, setAdding] = useState('');
  const save = useFormAction(async (next: string[]) => {
    const updated = await api.patch<Site>(`/api/sites/${encodeURIComponent(site.id)}`, {
      allowedOrigins: next,
    });
    setOrigins(updated.allowedOrigins);
    setAdding('');
    onSaved(updated);
  });
  const errors = save.fieldErrors;
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (adding.trim()) save.execute([...origins, adding.trim()]);
  };
  const itemErrors = Object.entries(errors)
    .filter(([k]) => k.startsWith('allowedOrigins'))
    .flatMap(([, v]) => v);
  return (
    <div>
      <h3>Allowed origins</h3>
      <p className="hint">
        Browser routes accept requests only from these exact origins (scheme, host, optional port).
      </p>
      {origins.length === 0 ? <Empty>No origins: browser routes refuse every request.</Empty> : null}
      <ul className="origins-list">
        {origins.map((o) => (
          <li key={o}>
            <code>{o}</code>
            {allowed ? (
              <button
                type="button"
                className="button small"
                aria-label={`Remove ${o}`}
                disabled={save.busy}
                onClick={() => save.execute(origins.filter((x) => x !== o))}
              >
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {allowed ? (
        <form className="inline-form" onSubmit={add}>
          <Field id={`origin-${site.id}`} label="Add origin" errors={itemErrors}>
            <input
              id={`origin-${site.id}`}
              placeholder="https://shop.example"
              value={adding}
              onChange={(e) => setAdding(e.target.value)}
            />
          </Field>
          <button type="submit" className="button" disabled={save.busy || !adding.trim()}>
            Add
          </button>
        </form>
      ) : null}
      {save.error && itemErrors.length === 0 ? (
        <ErrorMessage error={save.error} title="Origins not saved" />
      ) : null}
    </div>
  );
}

function SiteCard({ site, onChanged }: { site: Site; onChanged: () => void }) {
  const app = useApp();
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState<RotatedKeys | null>(null);
  const rotate = useAction(async () => {
    const keys = await api.post<RotatedKeys>(`/api/sites/${encodeURIComponent(site.id)}/rotate-keys`);
    setRotated(keys);
    setConfirming(false);
    onChanged();
  });
  return (
    <div className="card site-card" data-site-id={site.id}>
      <div className="page-head">
        <h2>{site.name}</h2>
        {app.can('site.rotate_keys') ? (
          <button type="button" className="button danger-outline" onClick={() => setConfirming(true)}>
            Rotate keys
          </button>
        ) : null}
      </div>
      <dl className="facts">
        <div>
          <dt>Site id</dt>
          <dd>
            <code>{site.id}</code>
          </dd>
        </div>
        <div>
          <dt>Site key</dt>
          <dd>
            <SecretValue value={rotated?.siteKey ?? site.siteKey} label="Site key" />
          </dd>
        </div>
        <div>
          <dt>Secret key</dt>
          <dd className="muted">Hidden (shown only when created or rotated)</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(site.createdAt)}</dd>
        </div>
      </dl>
      {rotated ? <OneTimeSecret keys={rotated} onDone={() => setRotated(null)} /> : null}
      <OriginsEditor site={site} onSaved={onChanged} />
      <ConfirmDialog
        open={confirming}
        title="Rotate keys"
        confirmLabel="Rotate both keys"
        busyLabel="Rotating…"
        busy={rotate.busy}
        error={rotate.error}
        errorTitle="Keys not rotated"
        onConfirm={() => rotate.execute()}
        onCancel={() => setConfirming(false)}
      >
        Replace <strong>both</strong> keys of <strong>{site.name}</strong>? The old site key and secret key
        stop working immediately, with no overlap: update your pages and backend right away.
      </ConfirmDialog>
    </div>
  );
}

function CreateSite({
  workspaceId,
  onCreated,
}: {
  workspaceId: string;
  onCreated: (site: CreatedSite) => void;
}) {
  const [name, setName] = useState('');
  const [origin, setOrigin] = useState('');
  const create = useFormAction(async () => {
    const site = await api.post<CreatedSite>('/api/sites', {
      workspaceId,
      name: name.trim(),
      allowedOrigins: origin.trim() ? [origin.trim()] : [],
    });
    setName('');
    setOrigin('');
    onCreated(site);
  });
  const errors = create.fieldErrors;
  const originErrors = Object.entries(errors)
    .filter(([k]) => k.startsWith('allowedOrigins'))
    .flatMap(([, v]) => v);
  return (
    <form
      className="card"
      aria-label="New site"
      onSubmit={(e) => {
        e.preventDefault();
        create.execute();
      }}
    >
      <h2>New site</h2>
      <div className="form-grid">
        <Field id="site-name" label="Name" errors={errors.name}>
          <input id="site-name" required value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field id="site-origin" label="Allowed origin (optional)" errors={originErrors}>
          <input
            id="site-origin"
            placeholder="https://shop.example"
            value={origin}
            onChange={(e) => setOrigin(e.target.value)}
          />
        </Field>
      </div>
      {create.error && Object.keys(errors).length === 0 ? <ErrorMessage error={create.error} /> : null}
      <button type="submit" className="button primary" disabled={create.busy || !name.trim()}>
        Create site
      </button>
    </form>
  );
}

export function SitesView() {
  const app = useApp();
  const [created, setCreated] = useState<CreatedSite | null>(null);
  return (
    <section>
      <h1>Sites</h1>
      {created ? (
        <div className="card">
          <h2>{created.name} created</h2>
          <OneTimeSecret keys={created} onDone={() => setCreated(null)} />
        </div>
      ) : null}
      {app.sitesLoading && app.sites.length === 0 ? <Loading label="Loading sites…" /> : null}
      <ErrorMessage error={app.sitesError} title="Could not load the sites" />
      {!app.sitesLoading && !app.sitesError && app.sites.length === 0 ? (
        <Empty>No sites in this workspace.</Empty>
      ) : null}
      {app.sites.map((site) => (
        <SiteCard key={site.id} site={site} onChanged={app.reloadSites} />
      ))}
      {app.workspace && app.can('site.create') ? (
        <CreateSite
          workspaceId={app.workspace.id}
          onCreated={(site) => {
            setCreated(site);
            app.reloadSites();
          }}
        />
      ) : null}
    </section>
  );
}
