import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redact } from '../../audit/log.ts';
import {
  addTestUser,
  createTestWorkspace,
  TEST_PASSWORD,
  type TestUser,
  type TestWorkspace,
} from '../../testing/accounts.ts';
import { createTestApp, type TestApp, testDialects } from '../../testing/context.ts';

/** The audit log on every dialect (PostgreSQL when WARDEN_TEST_DATABASE_URL is set). */
describe.each(testDialects())('audit log on %s', (dialect) => {
  let t: TestApp;
  let w: TestWorkspace;
  let other: TestWorkspace;
  let analyst: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    w = await createTestWorkspace(t.ctx, { plan: 'enterprise' });
    other = await createTestWorkspace(t.ctx);
    analyst = await addTestUser(t.ctx, { workspaceId: w.workspaceId, role: 'analyst' });
    viewer = await addTestUser(t.ctx, { workspaceId: w.workspaceId, role: 'viewer' });
  }, 60_000);
  afterAll(() => t?.close());

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    user: TestUser,
    payload?: object,
  ) => t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
  const audit = async (query = '', user: TestUser = w.owner) => {
    const res = await call('GET', `/api/audit?workspaceId=${w.workspaceId}${query}`, user);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as {
      items: Array<Record<string, unknown> & { id: string; action: string; createdAt: string }>;
      nextCursor: string | null;
    };
  };

  it('records a rule created, changed and deleted, with who and before/after', async () => {
    const created = await call('POST', `/api/rules?siteId=${w.site.id}`, analyst, {
      name: 'ring',
      expression: 'event.ip == "203.0.113.9"',
      score: 30,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    expect((await call('PATCH', `/api/rules/${id}`, w.owner, { score: 50 })).statusCode).toBe(200);
    expect((await call('DELETE', `/api/rules/${id}`, w.owner)).statusCode).toBe(200);
    const items = (await audit(`&targetId=${id}`)).items;
    expect(items.map((i) => i.action)).toEqual(['rule.delete', 'rule.update', 'rule.create']);
    const [deleted, updated, made] = items;
    expect(made).toMatchObject({
      workspaceId: w.workspaceId,
      siteId: w.site.id,
      targetType: 'rule',
      actor: { userId: analyst.userId, email: analyst.email },
      before: null,
      after: { id, name: 'ring', score: 30 },
    });
    expect(updated).toMatchObject({
      actor: { userId: w.owner.userId, email: w.owner.email },
      before: { score: 30 },
      after: { score: 50 },
    });
    expect(deleted).toMatchObject({ before: { score: 50 }, after: null });
    expect(Date.parse(made!.createdAt)).toBeGreaterThan(0);
  });

  it('does not record a change that failed', async () => {
    const before = (await audit('&action=rule.create')).items.length;
    const bad = await call('POST', `/api/rules?siteId=${w.site.id}`, analyst, {
      name: 'x',
      expression: '1 +',
      score: 1,
    });
    expect(bad.statusCode).toBe(400);
    expect((await audit('&action=rule.create')).items.length).toBe(before);
  });

  it('records lists, members, key rotations, webhooks and SSO without secrets', async () => {
    const list = await call('POST', `/api/lists?siteId=${w.site.id}`, w.owner, {
      name: 'bad_ips',
      kind: 'ip',
      type: 'block',
      entries: ['203.0.113.1'],
    });
    expect(list.statusCode).toBe(201);
    const listId = list.json().data.id;
    await call('PATCH', `/api/lists/${listId}`, w.owner, { add: ['203.0.113.2'], remove: ['203.0.113.1'] });
    const member = await addTestUser(t.ctx);
    const invited = await call('POST', `/api/workspaces/${w.workspaceId}/invitations`, w.owner, {
      email: member.email,
      role: 'viewer',
    });
    expect(invited.statusCode).toBe(201);
    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/invitations/accept',
      payload: { token: invited.json().data.token, password: TEST_PASSWORD },
    });
    expect(accepted.statusCode).toBe(200);
    await call('PATCH', `/api/workspaces/${w.workspaceId}/members/${member.userId}`, w.owner, {
      role: 'analyst',
    });
    await call('DELETE', `/api/workspaces/${w.workspaceId}/members/${member.userId}`, w.owner);
    const rotated = await call('POST', `/api/sites/${w.site.id}/rotate-keys`, w.owner);
    expect(rotated.statusCode).toBe(200);
    const webhook = await call('PUT', `/api/webhooks?siteId=${w.site.id}`, w.owner, {
      url: 'https://hooks.example.com/warden',
      enabled: false,
    });
    expect(webhook.statusCode, webhook.body).toBe(200);
    const secret = webhook.json().data.secret as string;

    const items = (await audit('&limit=100')).items;
    const byAction = (a: string) => items.filter((i) => i.action === a);
    expect(byAction('list.update')[0]).toMatchObject({
      targetId: listId,
      after: { added: ['203.0.113.2'], removed: ['203.0.113.1'], size: 1 },
    });
    expect(byAction('member.add')[0]).toMatchObject({ targetId: member.userId, after: { role: 'viewer' } });
    expect(byAction('member.update')[0]).toMatchObject({
      before: { role: 'viewer' },
      after: { role: 'analyst' },
    });
    expect(byAction('member.remove')[0]).toMatchObject({ before: { role: 'analyst', email: member.email } });
    expect(byAction('site.rotate_keys')[0]).toMatchObject({
      targetId: w.site.id,
      before: { siteKey: w.site.siteKey },
      after: { siteKey: rotated.json().data.siteKey },
    });
    expect(byAction('webhook.update')[0]).toMatchObject({
      after: { url: 'https://hooks.example.com/warden', enabled: false, secretRotated: false },
    });
    const stored = JSON.stringify(
      await t.ctx.database.db.selectFrom('audit_log').select(['before', 'after']).execute(),
    );
    expect(stored).not.toContain(rotated.json().data.secretKey);
    expect(stored).not.toContain(secret);
  });

  it('records SSO configuration changes', async () => {
    const res = await call('PUT', `/api/workspaces/${w.workspaceId}/sso`, w.owner, {
      enabled: false,
      idpEntityId: 'https://idp.example.com',
      ssoUrl: 'https://idp.example.com/sso',
      defaultRole: 'viewer',
      ssoRequired: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = (await audit('&targetType=sso')).items;
    expect(entry).toMatchObject({
      action: 'sso.update',
      targetId: w.workspaceId,
      before: null,
      after: { idpEntityId: 'https://idp.example.com', enabled: false },
    });
  });

  it('pages newest first with a cursor', async () => {
    const all = (await audit('&limit=100')).items.map((i) => i.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await audit(`&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(all.length).toBeGreaterThan(10);
  });

  it('lets owners and analysts read; viewers 403, foreign 404, anonymous 401, bad query 400', async () => {
    expect((await audit('', analyst)).items.length).toBeGreaterThan(0);
    const asViewer = await call('GET', `/api/audit?workspaceId=${w.workspaceId}`, viewer);
    expect(asViewer.statusCode).toBe(403);
    expect(asViewer.json().error.code).toBe('forbidden');
    expect((await call('GET', `/api/audit?workspaceId=${other.workspaceId}`, w.owner)).statusCode).toBe(404);
    expect((await t.app.inject(`/api/audit?workspaceId=${w.workspaceId}`)).statusCode).toBe(401);
    const bad = await call('GET', `/api/audit?workspaceId=${w.workspaceId}&cursor=bm9wZQ`, w.owner);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toBe('querystring.cursor');
    expect((await call('GET', `/api/audit?workspaceId=${w.workspaceId}&limit=0`, w.owner)).statusCode).toBe(
      400,
    );
  });
});

describe('redact', () => {
  it('replaces values under secret-looking keys at any depth, keeps flags', () => {
    expect(
      redact({ url: 'u', secret: 's', nested: [{ secretKeyHash: 'h', password: 'p', rotateSecret: true }] }),
    ).toEqual({
      url: 'u',
      secret: '[redacted]',
      nested: [{ secretKeyHash: '[redacted]', password: '[redacted]', rotateSecret: true }],
    });
  });
});
