import type { AppContext } from '../context.ts';
import { liveView } from '../services.ts';
import { firstDemoSiteKey } from '../workspace/sites.ts';
import { auditRoutes } from './routes/audit.ts';
import { authRoutes } from './routes/auth.ts';
import { clusterRoutes } from './routes/clusters.ts';
import { dashboardArea } from './routes/dashboard.ts';
import { decisionLabelRoutes } from './routes/decision-labels.ts';
import { decisionRoutes } from './routes/decisions.ts';
import { entityRoutes } from './routes/entities.ts';
import { entityLabelRoutes } from './routes/entity-labels.ts';
import { invitationRoutes } from './routes/invitations.ts';
import { listsRoutes } from './routes/lists.ts';
import { memberRoutes } from './routes/members.ts';
import { rulesRoutes } from './routes/rules.ts';
import { ruleToolRoutes } from './routes/rules-tools.ts';
import { scoringArea } from './routes/scoring-area.ts';
import { siteRoutes } from './routes/sites.ts';
import { ssoConfigRoutes } from './routes/sso-config.ts';
import { ssoSamlRoutes } from './routes/sso-saml.ts';
import { staticRoutes } from './routes/static.ts';
import { statsRoutes } from './routes/stats.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { workspaceRoutes } from './routes/workspaces.ts';
import type { App } from './types.ts';

/** Every area's routes, each in its own encapsulated plugin. */
export async function registerRoutes(app: App, ctx: AppContext): Promise<void> {
  // Each area declares what it uses (an interface or `Pick<>` beside its plugin) and gets one of the
  // objects below, which hold at least that; none gets the context itself (docs/architecture.md).
  const assets = ctx.services.assets;
  // The access checks' reads and clock (`AuthDeps`, http/auth.ts). The clock is read through the context at
  // each use (a test moves it after the app is built); secret and database are the context's own.
  const auth = { secret: ctx.secret, now: () => ctx.now(), database: ctx.database };
  // The access checks with the process's services and configuration (both fixed once built); each
  // area's type names the part of them it uses.
  const withServices = { ...auth, services: ctx.services, config: ctx.config };
  // With what is read at each use (hot state, logger, DNS resolver, worker link, readiness): a test
  // swaps them after the app is built (services.ts `liveView`).
  const live = liveView(ctx, { ...withServices });
  const areas: Array<(scope: App) => Promise<void>> = [
    (scope) => authRoutes(scope, live),
    (scope) => workspaceRoutes(scope, auth),
    (scope) => siteRoutes(scope, { ...auth, siteChanges: ctx.services.siteChanges }),
    (scope) => memberRoutes(scope, auth),
    (scope) => invitationRoutes(scope, live),
    (scope) => rulesRoutes(scope, withServices),
    (scope) => ruleToolRoutes(scope, withServices),
    (scope) => listsRoutes(scope, withServices),
    (scope) => scoringArea(scope, live),
    (scope) => decisionRoutes(scope, withServices),
    (scope) => decisionLabelRoutes(scope, withServices),
    (scope) => entityRoutes(scope, withServices),
    (scope) => entityLabelRoutes(scope, withServices),
    (scope) => clusterRoutes(scope, withServices),
    (scope) => statsRoutes(scope, withServices),
    (scope) => staticRoutes(scope, { assets, demoSiteKey: () => firstDemoSiteKey(ctx.database.db) }),
    (scope) => dashboardArea(scope, { assets }),
    (scope) => webhookRoutes(scope, live),
    (scope) => ssoConfigRoutes(scope, live),
    (scope) => ssoSamlRoutes(scope, live),
    (scope) => auditRoutes(scope, auth),
  ];
  for (const area of areas) await app.register(async (scope) => area(scope));
}
