import { useApp } from '../app-state.tsx';

/** Workspace and site pickers (GET /api/workspaces, GET /api/sites?workspaceId). */
export function Switchers() {
  const app = useApp();
  return (
    <div className="switchers">
      <label className="switcher">
        <span>Workspace</span>
        <select value={app.workspace?.id ?? ''} onChange={(e) => app.selectWorkspace(e.target.value)}>
          {app.workspaces.length === 0 ? <option value="">No workspace</option> : null}
          {app.workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name} · {w.demo ? 'demo' : w.plan}
            </option>
          ))}
        </select>
      </label>
      <label className="switcher">
        <span>Site</span>
        <select
          value={app.site?.id ?? ''}
          onChange={(e) => app.selectSite(e.target.value)}
          disabled={app.sites.length === 0}
        >
          {app.sites.length === 0 ? (
            <option value="">{app.sitesLoading ? 'Loading…' : 'No site'}</option>
          ) : null}
          {app.sites.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
