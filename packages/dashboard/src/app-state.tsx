import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { api } from './api/client.ts';
import type { Site, User, Workspace } from './api/types.ts';
import { ErrorMessage, Loading } from './components/Status.tsx';
import { useAsync } from './hooks/useAsync.ts';
import { can, type Operation, type Role } from './lib/permissions.ts';
import { loadPrefs, type Session, savePrefs } from './lib/session.ts';

/** What every view needs: the user, the selected workspace (with role and plan) and site. */
export interface AppState {
  session: Session;
  user: User;
  workspaces: Workspace[];
  workspace: Workspace | null;
  role: Role | null;
  sites: Site[];
  site: Site | null;
  sitesError: unknown;
  sitesLoading: boolean;
  selectWorkspace: (id: string) => void;
  selectSite: (id: string) => void;
  reloadSites: () => void;
  reloadWorkspaces: () => void;
  signOut: () => void;
  /** The role allows `operation` in the selected workspace (the server still decides). */
  can: (operation: Operation) => boolean;
}

const Context = createContext<AppState | null>(null);

export function useApp(): AppState {
  const state = useContext(Context);
  if (!state) throw new Error('useApp outside AppProvider');
  return state;
}

export function AppProvider({
  session,
  signOut,
  children,
}: {
  session: Session;
  signOut: () => void;
  children: ReactNode;
}) {
  const account = useAsync(
    async (signal) => {
      const [user, workspaces] = await Promise.all([
        api.get<User>('/api/auth/me', undefined, signal),
        api.get<Workspace[]>('/api/workspaces', undefined, signal),
      ]);
      return { user, workspaces };
    },
    [session.accessToken],
  );
  const [workspaceId, setWorkspaceId] = useState<string | undefined>(
    () => session.workspaceId ?? loadPrefs().workspaceId,
  );
  const [siteId, setSiteId] = useState<string | undefined>(() => loadPrefs().siteId);

  const workspaces = account.data?.workspaces ?? [];
  const workspace = workspaces.find((w) => w.id === workspaceId) ?? workspaces[0] ?? null;

  const sitesState = useAsync(
    (signal) =>
      workspace ? api.get<Site[]>('/api/sites', { workspaceId: workspace.id }, signal) : Promise.resolve([]),
    [workspace?.id],
  );
  const sites = sitesState.data ?? [];
  const site = sites.find((s) => s.id === siteId) ?? sites[0] ?? null;

  useEffect(() => {
    if (workspace) savePrefs({ workspaceId: workspace.id, ...(site ? { siteId: site.id } : {}) });
  }, [workspace, site]);

  const selectWorkspace = useCallback((id: string) => {
    setWorkspaceId(id);
    setSiteId(undefined);
  }, []);

  const role = workspace?.role ?? null;
  const value = useMemo<AppState | null>(
    () =>
      account.data
        ? {
            session,
            user: account.data.user,
            workspaces,
            workspace,
            role,
            sites,
            site,
            sitesError: sitesState.error,
            sitesLoading: sitesState.loading,
            selectWorkspace,
            selectSite: setSiteId,
            reloadSites: sitesState.reload,
            reloadWorkspaces: account.reload,
            signOut,
            can: (op) => can(role, op),
          }
        : null,
    [
      account.data,
      account.reload,
      session,
      workspaces,
      workspace,
      role,
      sites,
      site,
      sitesState.error,
      sitesState.loading,
      sitesState.reload,
      selectWorkspace,
      signOut,
    ],
  );

  if (account.error) {
    return (
      <main className="center-page">
        <ErrorMessage error={account.error} title="Could not load your account" />
        <button type="button" className="button" onClick={account.reload}>
          Try again
        </button>{' '}
        <button type="button" className="button secondary" onClick={signOut}>
          Sign out
        </button>
      </main>
    );
  }
  if (!value) {
    return (
      <main className="center-page">
        <Loading label="Loading your workspaces…" />
      </main>
    );
  }
  return <Context.Provider value={value}>{children}</Context.Provider>;
}
