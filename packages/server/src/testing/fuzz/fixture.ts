import type { RouteOptions } from 'fastify';
import type { AppContext } from '../../context.ts';
import { addTestUser, createTestWorkspace, type TestUser, type TestWorkspace } from '../accounts.ts';
import { BROWSER_ORIGIN } from '../scoring-app.ts';

/** Real ids and credentials, so generated requests reach handlers and not only the 404s. */
export interface FuzzFixture {
  ws: TestWorkspace;
  viewer: TestUser;
  /** Known-good values by parameter or property name (`siteId`, `id`, …). */
  known: Record<string, string[]>;
}

/** A workspace (enterprise: every route allowed) with a site, a viewer, a rule, a list and decisions. */
export async function createFuzzFixture(ctx: AppContext, baseUrl: string): Promise<FuzzFixture> {
  const ws = await createTestWorkspace(ctx, { plan: 'enterprise', origins: [BROWSER_ORIGIN] });
  const viewer = await addTestUser(ctx, { workspaceId: ws.workspaceId, role: 'viewer' });
  const post = async (path: string, body: unknown, headers: Record<string, string>) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { data?: { id?: string; decision_id?: string } };
  };
  const server = { 'x-site-key': ws.site.siteKey, 'x-secret-key': ws.site.secretKey };
  const decisions: string[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await post(
      '/api/antibot/verify',
      { context: { event_type: 'login', account_id: `fuzz_${i}`, ip: `203.0.113.${i}` } },
      server,
    );
    if (r.data?.decision_id) decisions.push(r.data.decision_id);
  }
  const rule = await post(
    `/api/rules?siteId=${ws.site.id}`,
    { name: 'fuzz_rule', mode: 'shadow', expression: 'event.type == "login"', score: 10 },
    ws.owner.headers,
  );
  const list = await post(
    `/api/lists?siteId=${ws.site.id}`,
    { name: 'fuzz_list', kind: 'ip', type: 'block', entries: ['198.51.100.1'] },
    ws.owner.headers,
  );
  const known: Record<string, string[]> = {
    siteId: [ws.site.id],
    workspaceId: [ws.workspaceId],
    userId: [viewer.userId],
    decisionId: decisions,
    ruleId: rule.data?.id ? [rule.data.id] : [],
    listId: list.data?.id ? [list.data.id] : [],
  };
  known.id = [ws.site.id, ws.workspaceId, ...decisions, ...known.ruleId!, ...known.listId!];
  return { ws, viewer, known };
}

/** Routes that would end the fixture's session or keys: the fuzzer never calls them as the owner. */
export function destructive(route: Pick<RouteOptions, 'url' | 'method'>): boolean {
  return /\/logout$|\/rotate-keys$|\/members\/:userId$|\/sso$/.test(route.url);
}
