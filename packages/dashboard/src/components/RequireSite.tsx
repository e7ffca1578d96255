import type { ReactNode } from 'react';
import type { Site } from '../api/types.ts';
import { useApp } from '../app-state.tsx';
import { href } from '../lib/router.ts';
import { Link } from './Link.tsx';
import { Empty, ErrorMessage, Loading } from './Status.tsx';

/** Renders `children(site)` once a site is selected; loading, error and "no site yet" otherwise. */
export function RequireSite({ children }: { children: (site: Site) => ReactNode }) {
  const app = useApp();
  if (app.sitesLoading && !app.site) return <Loading label="Loading sites…" />;
  if (app.sitesError) return <ErrorMessage error={app.sitesError} title="Could not load the sites" />;
  if (!app.site) {
    return (
      <Empty>
        This workspace has no site yet. <Link href={href('sites')}>Create one on the Sites page</Link>.
      </Empty>
    );
  }
  return <>{children(app.site)}</>;
}
