import { useEffect, useRef, useState } from 'react';
import { useApp } from '../app-state.tsx';
import type { Operation } from '../lib/permissions.ts';
import type { Route } from '../lib/router.ts';
import { href } from '../lib/router.ts';
import { AuditView } from '../views/Audit.tsx';
import { ClusterView } from '../views/Cluster.tsx';
import { DecisionDetailView } from '../views/DecisionDetail.tsx';
import { DecisionsView } from '../views/Decisions.tsx';
import { ListsView } from '../views/Lists.tsx';
import { MembersView } from '../views/Members.tsx';
import { OverviewView } from '../views/Overview.tsx';
import { QueueView } from '../views/Queue.tsx';
import { RuleEditView } from '../views/RuleEdit.tsx';
import { RulesView } from '../views/Rules.tsx';
import { SitesView } from '../views/Sites.tsx';
import { SsoView } from '../views/Sso.tsx';
import { WebhooksView } from '../views/Webhooks.tsx';
import { Link } from './Link.tsx';
import { Empty } from './Status.tsx';
import { Switchers } from './Switchers.tsx';

interface NavItem {
  name: Route['name'];
  label: string;
  path: string;
  /** Also active on these routes. */
  also?: Route['name'][];
  ownerOnly?: boolean;
  /** Shown only when the role may do this. */
  needs?: Operation;
}

const NAV: NavItem[] = [
  { name: 'overview', label: 'Overview', path: href('') },
  { name: 'decisions', label: 'Decisions', path: href('decisions'), also: ['decision', 'cluster'] },
  { name: 'queue', label: 'Review queue', path: href('queue') },
  { name: 'rules', label: 'Rules', path: href('rules'), also: ['rule'] },
  { name: 'lists', label: 'Lists', path: href('lists') },
  { name: 'sites', label: 'Sites', path: href('sites') },
  { name: 'webhooks', label: 'Webhooks', path: href('webhooks'), ownerOnly: true },
  { name: 'members', label: 'Members', path: href('members'), ownerOnly: true },
  { name: 'sso', label: 'Single sign-on', path: href('sso'), ownerOnly: true },
  { name: 'audit', label: 'Audit log', path: href('audit'), needs: 'audit.read' },
];

function View({ route }: { route: Route }) {
  switch (route.name) {
    case 'overview':
      return <OverviewView />;
    case 'decisions':
      return <DecisionsView />;
    case 'decision':
      return <DecisionDetailView id={route.id} />;
    case 'queue':
      return <QueueView />;
    case 'cluster':
      return <ClusterView id={route.id} />;
    case 'rules':
      return <RulesView />;
    case 'rule':
      return <RuleEditView id={route.id} />;
    case 'lists':
      return <ListsView />;
    case 'sites':
      return <SitesView />;
    case 'webhooks':
      return <WebhooksView />;
    case 'members':
      return <MembersView />;
    case 'sso':
      return <SsoView />;
    case 'audit':
      return <AuditView />;
    default:
      return (
        <section>
          <h1>Page not found</h1>
          <Empty>
            There is no page here. <Link href={href('')}>Go to the overview</Link>.
          </Empty>
        </section>
      );
  }
}

export function Shell({ route }: { route: Route }) {
  const app = useApp();
  const [menuOpen, setMenuOpen] = useState(false);
  const mainRef = useRef<HTMLElement>(null);
  const first = useRef(true);
  // After navigating: close the small-screen menu and move focus to the new page (not on first load).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every route change
  useEffect(() => {
    setMenuOpen(false);
    if (first.current) first.current = false;
    else mainRef.current?.focus({ preventScroll: true });
  }, [route.name, (route as { id?: string | null }).id]);

  const items = NAV.filter(
    (item) => (!item.ownerOnly || app.can('webhooks.manage')) && (!item.needs || app.can(item.needs)),
  );
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link className="brand" href={href('')}>
          <img src="/dashboard/favicon.svg" alt="" width="24" height="24" />
          <span>Warden</span>
        </Link>
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen((o) => !o)}
        >
          Menu
        </button>
        <Switchers />
        <div className="user">
          <span className="user-email" title={app.user.email}>
            {app.user.email}
          </span>
          {app.role ? <span className={`pill pill-role`}>{app.role}</span> : null}
          <button type="button" className="button small secondary" onClick={app.signOut}>
            Sign out
          </button>
        </div>
      </header>
      <div className="layout">
        <nav id="main-nav" className={`nav${menuOpen ? ' open' : ''}`} aria-label="Main">
          <ul>
            {items.map((item) => {
              const active = item.name === route.name || (item.also ?? []).includes(route.name);
              return (
                <li key={item.name}>
                  <Link href={item.path} aria-current={active ? 'page' : undefined}>
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <main id="main" className="content" tabIndex={-1} ref={mainRef}>
          <View route={route} />
        </main>
      </div>
    </div>
  );
}
