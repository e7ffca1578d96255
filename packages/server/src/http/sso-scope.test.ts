import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTestUser, createTestWorkspace, type TestWorkspace } from '../testing/accounts.ts';
import { createTestApp, type TestApp, testDialects } from '../testing/context.ts';
import { serverHeaders } from '../testing/scoring-app.ts';
import { configureWebhook } from '../webhooks/test-fixtures.ts';
import { startSession } from '../workspace/sessions.ts';
import { addMembership } from '../workspace/workspaces.ts';
import type { App } from './types.ts';

/**
 * Interface §5 rule 4: a single sign-on session is scoped to one workspace. Route by route, the
 * SSO token of workspace A is used on workspace B's resources — by a user who is an owner of B
 * too, so only the scope can refuse — and every route must answer 403 `forbidden`. The routes
 * come from the app itself: a new `/api` route that this table does not classify fails the test.
 */

/** `METHOD /path` of every route of the app (HEAD and OPTIONS left out), read from printRoutes. */
function routesOf(app: App): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const path = (depth > 0 ? stack[depth - 1]! : '') + m[2]!;
    stack[depth] = path;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.push(`${method} ${path}`);
    }
  }
  return routes;
}

/** `/api` routes that take no bearer token at all, so no session scope applies. */
const NOT_BEARER: Record<string, string> = {
  'GET /api/openapi.json': 'public document',
  'POST /api/auth/login': 'password sign-in (no token yet)',
  'GET /api/sso/saml/:workspaceId/metadata': 'public SAML metadata',
  'GET /api/sso/saml/:workspaceId/login': 'public SAML sign-in start',
  'POST /api/sso/saml/:workspaceId/acs': 'public SAML assertion consumer',
  'POST /api/invitations/preview': 'the invitation token is the credential',
  'POST /api/invitations/accept':
    'the invitation token is the credential; a bearer, if sent, must be the invited address and not scoped to another workspace (invitations.test.ts)',
};
const SCORING_PREFIX = '/api/antibot/'; // site keys, not bearer tokens

interface Foreign {
  /** The other workspace's ids. */
  workspaceId: string;
  siteId: string;
  memberId: string;
  ruleId: string;
  listId: string;
  decisionId: string;
  clusterId: string;
  deliveryId: string;
}

interface Call {
  url: string;
  payload?: Record<string, unknown>;
}

/** Routes on a workspace-owned resource: called on workspace B's resource they must answer 403. */
const ON_OTHER_WORKSPACE: Record<string, (b: Foreign) => Call> = {
  'GET /api/workspaces/:id/members': (b) => ({ url: `/api/workspaces/${b.workspaceId}/members` }),
  'POST /api/workspaces/:id/invitations': (b) => ({
    url: `/api/workspaces/${b.workspaceId}/invitations`,
    payload: { email: 'new-member@example.test', role: 'viewer' },
  }),
  'GET /api/workspaces/:id/invitations': (b) => ({ url: `/api/workspaces/${b.workspaceId}/invitations` }),
  'DELETE /api/workspaces/:id/invitations/:invitationId': (b) => ({
    url: `/api/workspaces/${b.workspaceId}/invitations/no-such-invitation`,
  }),
  'PATCH /api/workspaces/:id/members/:userId': (b) => ({
    url: `/api/workspaces/${b.workspaceId}/members/${b.memberId}`,
    payload: { role: 'analyst' },
  }),
  'DELETE /api/workspaces/:id/members/:userId': (b) => ({
    url: `/api/workspaces/${b.workspaceId}/members/${b.memberId}`,
  }),
  'GET /api/workspaces/:id/sso': (b) => ({ url: `/api/workspaces/${b.workspaceId}/sso` }),
  'POST /api/workspaces/:id/sso/metadata/refresh': (b) => ({
    url: `/api/workspaces/${b.workspaceId}/sso/metadata/refresh`,
  }),
  'PUT /api/workspaces/:id/sso': (b) => ({
    url: `/api/workspaces/${b.workspaceId}/sso`,
    payload: { enabled: false, defaultRole: 'viewer', ssoRequired: false },
  }),
  'GET /api/sites': (b) => ({ url: `/api/sites?workspaceId=${b.workspaceId}` }),
  'POST /api/sites': (b) => ({
    url: '/api/sites',
    payload: { workspaceId: b.workspaceId, name: 'New site' },
  }),
  'GET /api/sites/:id': (b) => ({ url: `/api/sites/${b.siteId}` }),
  'PATCH /api/sites/:id': (b) => ({ url: `/api/sites/${b.siteId}`, payload: { name: 'Renamed' } }),
  'POST /api/sites/:id/rotate-keys': (b) => ({ url: `/api/sites/${b.siteId}/rotate-keys` }),
  'GET /api/webhooks': (b) => ({ url: `/api/webhooks?siteId=${b.siteId}` }),
  'PUT /api/webhooks': (b) => ({
    url: `/api/webhooks?siteId=${b.siteId}`,
    payload: { url: 'https://hooks.example.com/other', enabled: true },
  }),
  'POST /api/webhooks/test': (b) => ({ url: `/api/webhooks/test?siteId=${b.siteId}` }),
  'POST /api/webhooks/deliveries/:id/redeliver': (b) => ({
    url: `/api/webhooks/deliveries/${b.deliveryId}/redeliver`,
  }),
  'GET /api/stats': (b) => ({ url: `/api/stats?siteId=${b.siteId}` }),
  'GET /api/decisions': (b) => ({ url: `/api/decisions?siteId=${b.siteId}` }),
  'GET /api/decisions/:id': (b) => ({ url: `/api/decisions/${b.decisionId}` }),
  'GET /api/decisions/export': (b) => ({ url: `/api/decisions/export?siteId=${b.siteId}&format=csv` }),
  'GET /api/entities/summary': (b) => ({
    url: `/api/entities/summary?siteId=${b.siteId}&kind=ip&value=1.2.3.4`,
  }),
  'GET /api/audit': (b) => ({ url: `/api/audit?workspaceId=${b.workspaceId}` }),
  'GET /api/clusters/:id': (b) => ({ url: `/api/clusters/${b.clusterId}` }),
  'POST /api/decisions/:id/label': (b) => ({
    url: `/api/decisions/${b.decisionId}/label`,
    payload: { label: 'fraud' },
  }),
  'POST /api/decisions/labels': (b) => ({
    url: '/api/decisions/labels',
    payload: { decisionIds: [b.decisionId], label: 'fraud' },
  }),
  'GET /api/entity-labels': (b) => ({ url: `/api/entity-labels?siteId=${b.siteId}` }),
  'PUT /api/entity-labels': (b) => ({
    url: `/api/entity-labels?siteId=${b.siteId}`,
    payload: { kind: 'account', value: 'someone', label: 'fraud' },
  }),
  'DELETE /api/entity-labels': (b) => ({
    url: `/api/entity-labels?siteId=${b.siteId}&kind=account&value=someone`,
  }),
  'GET /api/rules': (b) => ({ url: `/api/rules?siteId=${b.siteId}` }),
  'POST /api/rules': (b) => ({ url: `/api/rules?siteId=${b.siteId}`, payload: RULE }),
  'POST /api/rules/backtest': (b) => ({ url: `/api/rules/backtest?siteId=${b.siteId}`, payload: {} }),
  'GET /api/rules/:id': (b) => ({ url: `/api/rules/${b.ruleId}` }),
  'PATCH /api/rules/:id': (b) => ({ url: `/api/rules/${b.ruleId}`, payload: { enabled: false } }),
  'DELETE /api/rules/:id': (b) => ({ url: `/api/rules/${b.ruleId}` }),
  'GET /api/rules/:id/stats': (b) => ({ url: `/api/rules/${b.ruleId}/stats` }),
  'GET /api/rules/hits': (b) => ({ url: `/api/rules/hits?siteId=${b.siteId}` }),
  'POST /api/rules/test': (b) => ({
    url: `/api/rules/test?siteId=${b.siteId}`,
    payload: { decisionId: b.decisionId, rule: RULE },
  }),
  'GET /api/stats/top': (b) => ({ url: `/api/stats/top?siteId=${b.siteId}` }),
  'GET /api/lists': (b) => ({ url: `/api/lists?siteId=${b.siteId}` }),
  'POST /api/lists': (b) => ({ url: `/api/lists?siteId=${b.siteId}`, payload: { ...LIST, name: 'other' } }),
  'GET /api/lists/:id': (b) => ({ url: `/api/lists/${b.listId}` }),
  'PATCH /api/lists/:id': (b) => ({ url: `/api/lists/${b.listId}`, payload: { add: ['203.0.113.10'] } }),
  'DELETE /api/lists/:id': (b) => ({ url: `/api/lists/${b.listId}` }),
};

/** Account-wide operations: refused to any SSO session. */
const ACCOUNT_WIDE: Record<string, Call> = {
  'POST /api/workspaces': { url: '/api/workspaces', payload: { name: 'Side project' } },
};

/** Routes that read no workspace's data (the built-in signal catalogue): any session may call them. */
const NO_WORKSPACE = ['GET /api/signals'];

/** Routes about the session itself; they must show only the scoped workspace (checked below). */
const OWN_SESSION = ['GET /api/auth/me', 'POST /api/auth/logout', 'GET /api/workspaces'];

const RULE = {
  name: 'many_ips',
  description: 'Many logins from one IP',
  eventTypes: ['login'],
  expression: 'features.ip_1m > 20.0 && event.type == "login"',
  score: 40,
};
const LIST = { name: 'bad_ips', kind: 'ip', type: 'block', entries: ['203.0.113.7'] };

describe.each(testDialects())('single sign-on scope, route by route, on %s', (dialect) => {
  let t: TestApp;
  let a: TestWorkspace;
  let b: Foreign;
  let scoped: { authorization: string };

  async function scopedSession(): Promise<{ authorization: string }> {
    const session = await startSession(
      t.ctx.database.db,
      t.ctx.secret,
      a.owner.userId,
      a.workspaceId,
      Date.now(),
    );
    return { authorization: `Bearer ${session.accessToken}` };
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    a = await createTestWorkspace(t.ctx, { plan: 'enterprise', name: 'Home' });
    const other = await createTestWorkspace(t.ctx, { plan: 'enterprise', name: 'Other' });
    // The same person owns B too: only the session scope can refuse.
    await addMembership(t.ctx.database.db, other.workspaceId, a.owner.userId, 'owner', Date.now());
    const member = await addTestUser(t.ctx, { workspaceId: other.workspaceId, role: 'viewer' });
    const asOwner = (method: 'POST' | 'PUT', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: a.owner.headers, ...(payload ? { payload } : {}) });
    const siteId = other.site.id;
    const rule = await asOwner('POST', `/api/rules?siteId=${siteId}`, RULE);
    const list = await asOwner('POST', `/api/lists?siteId=${siteId}`, LIST);
    const decision = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: serverHeaders(other.site),
      payload: { context: { event_type: 'login', account_id: 'someone' } },
    });
    await configureWebhook(t.ctx.database, siteId, 'https://hooks.example.com/warden');
    const delivery = await asOwner('POST', `/api/webhooks/test?siteId=${siteId}`);
    b = {
      workspaceId: other.workspaceId,
      siteId,
      memberId: member.userId,
      ruleId: rule.json().data.id,
      listId: list.json().data.id,
      decisionId: decision.json().data.request_id,
      clusterId: decision.json().data.identity?.cluster_id,
      deliveryId: delivery.json().data.deliveryId,
    };
    for (const [name, id] of Object.entries(b)) expect(id, name).toBeTruthy();
    scoped = await scopedSession();
  });
  afterAll(() => t.close());

  it('classifies every /api route that takes a bearer token', () => {
    const routes = routesOf(t.app).filter((r) => r.split(' ')[1]!.startsWith('/api/'));
    expect(routes.length).toBeGreaterThan(30);
    const unclassified = routes.filter(
      (r) =>
        !(r in NOT_BEARER) &&
        !r.split(' ')[1]!.startsWith(SCORING_PREFIX) &&
        !(r in ON_OTHER_WORKSPACE) &&
        !(r in ACCOUNT_WIDE) &&
        !OWN_SESSION.includes(r) &&
        !NO_WORKSPACE.includes(r),
    );
    expect(unclassified, 'classify these routes in sso-scope.test.ts').toEqual([]);
    // …and the table names no route that is gone.
    const classified = [
      ...Object.keys(ON_OTHER_WORKSPACE),
      ...Object.keys(ACCOUNT_WIDE),
      ...OWN_SESSION,
      ...NO_WORKSPACE,
    ];
    expect(classified.filter((r) => !routes.includes(r))).toEqual([]);
  });

  it.each(Object.keys(ON_OTHER_WORKSPACE))('%s on another workspace → 403 forbidden', async (route) => {
    const { url, payload } = ON_OTHER_WORKSPACE[route]!(b);
    const method = route.split(' ')[0] as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    const res = await t.app.inject({ method, url, headers: scoped, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
    expect(res.json().error.message).toMatch(/single sign-on/);
  });

  it.each(Object.keys(ACCOUNT_WIDE))('%s (account-wide) → 403 forbidden', async (route) => {
    const { url, payload } = ACCOUNT_WIDE[route]!;
    const method = route.split(' ')[0] as 'POST';
    const res = await t.app.inject({ method, url, headers: scoped, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
  });

  it('a scoped session reads the signal catalogue (no workspace data)', async () => {
    for (const route of NO_WORKSPACE) {
      const res = await t.app.inject({ url: route.split(' ')[1]!, headers: scoped });
      expect(res.statusCode, route).toBe(200);
    }
  });

  it('session routes show only the scoped workspace, and logout ends only this session', async () => {
    const me = (await t.app.inject({ url: '/api/auth/me', headers: scoped })).json().data;
    expect(me.memberships.map((m: { workspaceId: string }) => m.workspaceId)).toEqual([a.workspaceId]);
    const workspaces = (await t.app.inject({ url: '/api/workspaces', headers: scoped })).json().data;
    expect(workspaces.map((w: { id: string }) => w.id)).toEqual([a.workspaceId]);
    const sites = (await t.app.inject({ url: '/api/sites', headers: scoped })).json().data;
    expect(sites.map((s: { workspaceId: string }) => s.workspaceId)).toEqual([a.workspaceId]);

    const throwaway = await scopedSession();
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: throwaway })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: '/api/auth/me', headers: throwaway })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/auth/me', headers: scoped })).statusCode).toBe(200);
  });

  it('the scoped session still works on its own workspace, and B was left untouched', async () => {
    for (const url of [
      `/api/sites/${a.site.id}`,
      `/api/workspaces/${a.workspaceId}/members`,
      `/api/workspaces/${a.workspaceId}/sso`,
    ]) {
      expect((await t.app.inject({ url, headers: scoped })).statusCode, url).toBe(200);
    }
    const owner = a.owner.headers;
    expect((await t.app.inject({ url: `/api/rules/${b.ruleId}`, headers: owner })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ url: `/api/lists/${b.listId}`, headers: owner })).json().data.entries,
    ).toEqual(['203.0.113.7']);
    const members = (
      await t.app.inject({ url: `/api/workspaces/${b.workspaceId}/members`, headers: owner })
    ).json();
    expect(members.data.find((m: { userId: string }) => m.userId === b.memberId)?.role).toBe('viewer');
  });
});
