import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addTestUser,
  createRoleFixture,
  TEST_PASSWORD,
  type TestUser,
  type TestWorkspace,
} from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import { INVITATION_TTL_MS } from '../../workspace/invitations.ts';
import { startSession } from '../../workspace/sessions.ts';

describe('invitations', () => {
  let t: TestApp;
  let w: TestWorkspace;
  let foreign: TestWorkspace;
  let analyst: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ w, foreign, analyst } = await createRoleFixture(t.ctx));
  });
  afterAll(() => t.close());

  const invitations = (workspaceId: string) => `/api/workspaces/${workspaceId}/invitations`;
  async function invite(email: string, role = 'analyst', workspace = w) {
    return t.app.inject({
      method: 'POST',
      url: invitations(workspace.workspaceId),
      headers: workspace.owner.headers,
      payload: { email, role },
    });
  }
  function accept(payload: Record<string, unknown>, headers: Record<string, string> = {}) {
    return t.app.inject({ method: 'POST', url: '/api/invitations/accept', headers, payload });
  }
  async function memberRoles(workspaceId: string, headers: Record<string, string>) {
    const res = await t.app.inject({ url: `/api/workspaces/${workspaceId}/members`, headers });
    return Object.fromEntries(res.json().data.map((m: { email: string; role: string }) => [m.email, m.role]));
  }

  it('answers the same shape for an address with and without an account, revealing nothing', async () => {
    const existing = await invite(foreign.owner.email, 'viewer');
    const fresh = await invite('Nobody.Yet@Example.test', 'viewer');
    for (const res of [existing, fresh]) {
      expect(res.statusCode).toBe(201);
      expect(Object.keys(res.json().data).sort()).toEqual([
        'createdAt',
        'email',
        'expiresAt',
        'id',
        'role',
        'token',
      ]);
      expect(res.json().data.token).toMatch(/^inv_/);
    }
    expect(fresh.json().data.email).toBe('nobody.yet@example.test');
    // Nothing joined yet: an invitation is not a membership.
    expect(Object.keys(await memberRoles(w.workspaceId, w.owner.headers))).not.toContain(foreign.owner.email);
  });

  it('a new address: preview, accept with a new password (account created), then sign in', async () => {
    const { token } = (await invite('new.person@example.test', 'analyst')).json().data;
    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/invitations/preview',
      payload: { token },
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toMatchObject({
      email: 'new.person@example.test',
      role: 'analyst',
      workspaceId: w.workspaceId,
    });
    const short = await accept({ token, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details[0].path).toBe('body.password');
    const res = await accept({ token, password: 'initial-pass-1', name: 'New Person' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      workspaceId: w.workspaceId,
      role: 'analyst',
      email: 'new.person@example.test',
    });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'new.person@example.test', password: 'initial-pass-1' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().data.user).toMatchObject({ name: 'New Person' });
    expect(login.json().data.user.memberships[0]).toMatchObject({
      workspaceId: w.workspaceId,
      role: 'analyst',
    });
    // Single use.
    expect((await accept({ token, password: 'initial-pass-1' })).statusCode).toBe(404);
  });

  it('an existing account must prove itself: its password or its session; a wrong one adds nothing', async () => {
    const { token } = (await invite(foreign.owner.email, 'viewer')).json().data;
    const noPassword = await accept({ token });
    expect(noPassword.statusCode).toBe(400);
    const wrong = await accept({ token, password: 'not-the-password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('invalid_credentials');
    expect(Object.keys(await memberRoles(w.workspaceId, w.owner.headers))).not.toContain(foreign.owner.email);
    // Another signed-in account cannot take it.
    const other = await accept({ token }, analyst.headers);
    expect(other.statusCode).toBe(403);
    const res = await accept({ token }, foreign.owner.headers);
    expect(res.statusCode).toBe(200);
    expect((await memberRoles(w.workspaceId, w.owner.headers))[foreign.owner.email]).toBe('viewer');
    const site = await t.app.inject({ url: `/api/sites/${w.site.id}`, headers: foreign.owner.headers });
    expect(site.statusCode).toBe(200);
  });

  it('a single sign-on session scoped to another workspace cannot accept', async () => {
    const u = await addTestUser(t.ctx);
    const { token } = (await invite(u.email, 'viewer')).json().data;
    const scoped = await startSession(
      t.ctx.database.db,
      t.ctx.secret,
      u.userId,
      foreign.workspaceId,
      t.ctx.now(),
    );
    const res = await accept({ token }, { authorization: `Bearer ${scoped.accessToken}` });
    expect(res.statusCode).toBe(403);
    expect((await accept({ token }, u.headers)).statusCode).toBe(200);
  });

  it('with the right password of an existing account', async () => {
    const u = await addTestUser(t.ctx);
    const { token } = (await invite(u.email, 'analyst')).json().data;
    expect((await accept({ token, password: TEST_PASSWORD })).statusCode).toBe(200);
    expect((await memberRoles(w.workspaceId, w.owner.headers))[u.email]).toBe('analyst');
  });

  it('lists pending invitations, revokes one (its token stops working), re-inviting replaces the token', async () => {
    const first = (await invite('pending@example.test', 'viewer')).json().data;
    const second = (await invite('pending@example.test', 'analyst')).json().data;
    const list = await t.app.inject({ url: invitations(w.workspaceId), headers: w.owner.headers });
    expect(list.statusCode).toBe(200);
    const pending = list.json().data.filter((i: { email: string }) => i.email === 'pending@example.test');
    expect(pending).toEqual([expect.objectContaining({ id: second.id, role: 'analyst' })]);
    expect(JSON.stringify(list.json())).not.toContain('inv_');
    expect((await accept({ token: first.token, password: 'whatever-long' })).statusCode).toBe(404);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${invitations(w.workspaceId)}/${second.id}`,
      headers: w.owner.headers,
    });
    expect(del.statusCode).toBe(200);
    expect((await accept({ token: second.token, password: 'whatever-long' })).statusCode).toBe(404);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `${invitations(w.workspaceId)}/${second.id}`,
      headers: w.owner.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it('expires after 7 days', async () => {
    const { token } = (await invite('late@example.test')).json().data;
    const realNow = t.ctx.now;
    t.ctx.now = () => realNow() + INVITATION_TTL_MS + 1000;
    try {
      expect((await accept({ token, password: 'long-enough-1' })).statusCode).toBe(404);
    } finally {
      t.ctx.now = realNow;
    }
  });

  it('409 for an existing member, 400 for a bad role, 404 for another workspace, owners only', async () => {
    expect((await invite(analyst.email)).statusCode).toBe(409);
    const badRole = await invite('x@example.test', 'admin');
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().error.code).toBe('validation_failed');
    const cross = await t.app.inject({
      method: 'POST',
      url: invitations(foreign.workspaceId),
      headers: w.owner.headers,
      payload: { email: 'y@example.test', role: 'viewer' },
    });
    expect(cross.statusCode).toBe(404);
    const byAnalyst = await t.app.inject({
      method: 'POST',
      url: invitations(w.workspaceId),
      headers: analyst.headers,
      payload: { email: 'z@example.test', role: 'viewer' },
    });
    expect(byAnalyst.statusCode).toBe(403);
  });

  it('records invitation.create, invitation.revoke and member.add (by the accepting user) in the audit log', async () => {
    const res = await t.app.inject({
      url: `/api/audit?workspaceId=${w.workspaceId}&limit=100`,
      headers: w.owner.headers,
    });
    expect(res.statusCode).toBe(200);
    const actions = res.json().data.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['invitation.create', 'invitation.revoke', 'member.add']));
    expect(JSON.stringify(res.json())).not.toContain('inv_');
  });
});
