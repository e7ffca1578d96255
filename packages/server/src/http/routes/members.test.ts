import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addTestUser,
  createRoleFixture,
  createTestWorkspace,
  type TestUser,
  type TestWorkspace,
} from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';

describe('member routes', () => {
  let t: TestApp;
  let w: TestWorkspace;
  let analyst: TestUser;
  let viewer: TestUser;
  let foreign: TestWorkspace;

  beforeAll(async () => {
    t = await createTestApp();
    ({ w, analyst, viewer, foreign } = await createRoleFixture(t.ctx));
  });
  afterAll(() => t.close());

  const members = (workspaceId: string) => `/api/workspaces/${workspaceId}/members`;

  describe('happy', () => {
    it('lists members with their roles', async () => {
      const res = await t.app.inject({ url: members(w.workspaceId), headers: w.owner.headers });
      expect(res.statusCode).toBe(200);
      const roles = Object.fromEntries(
        res.json().data.map((m: { email: string; role: string }) => [m.email, m.role]),
      );
      expect(roles).toEqual({
        [w.owner.email]: 'owner',
        [analyst.email]: 'analyst',
        [viewer.email]: 'viewer',
      });
    });

    it('changes a role', async () => {
      const u = await addTestUser(t.ctx, { workspaceId: w.workspaceId, role: 'viewer' });
      const res = await t.app.inject({
        method: 'PATCH',
        url: `${members(w.workspaceId)}/${u.userId}`,
        headers: w.owner.headers,
        payload: { role: 'analyst' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ userId: u.userId, role: 'analyst' });
      const patch = await t.app.inject({
        method: 'PATCH',
        url: `/api/sites/${w.site.id}`,
        headers: u.headers,
        payload: { name: 'now allowed' },
      });
      expect(patch.statusCode).toBe(200);
    });
  });

  describe('error', () => {
    it('cannot demote or remove the last owner (409), but can once there is another', async () => {
      const solo = await createTestWorkspace(t.ctx);
      const url = `${members(solo.workspaceId)}/${solo.owner.userId}`;
      const h = solo.owner.headers;
      const demote = await t.app.inject({ method: 'PATCH', url, headers: h, payload: { role: 'viewer' } });
      expect(demote.statusCode).toBe(409);
      expect(demote.json().error.code).toBe('conflict');
      const remove = await t.app.inject({ method: 'DELETE', url, headers: h });
      expect(remove.statusCode).toBe(409);
      const keep = await t.app.inject({ method: 'PATCH', url, headers: h, payload: { role: 'owner' } });
      expect(keep.statusCode).toBe(200);
      await addTestUser(t.ctx, { workspaceId: solo.workspaceId, role: 'owner' });
      expect((await t.app.inject({ method: 'DELETE', url, headers: h })).statusCode).toBe(200);
    });

    it('answers 404 for a user who is not a member', async () => {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `${members(w.workspaceId)}/${foreign.owner.userId}`,
        headers: w.owner.headers,
        payload: { role: 'viewer' },
      });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('security', () => {
    it('answers 401 without a token and 404 for another workspace', async () => {
      expect((await t.app.inject({ url: members(w.workspaceId) })).statusCode).toBe(401);
      for (const res of [
        await t.app.inject({ url: members(foreign.workspaceId), headers: w.owner.headers }),
        await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${foreign.workspaceId}/invitations`,
          headers: w.owner.headers,
          payload: { email: w.owner.email, role: 'owner' },
        }),
        await t.app.inject({
          method: 'DELETE',
          url: `${members(foreign.workspaceId)}/${foreign.owner.userId}`,
          headers: w.owner.headers,
        }),
      ]) {
        expect(res.statusCode).toBe(404);
      }
    });

    it('follows the permission matrix for every role', async () => {
      const target = await addTestUser(t.ctx, { workspaceId: w.workspaceId, role: 'viewer' });
      const expected = {
        // SPEC §6: members are the owner's; the read row names sites, decisions, clusters, rules,
        // lists and stats only (a member list is every colleague's e-mail address).
        list: { owner: 200, analyst: 403, viewer: 403 },
        invite: { owner: 201, analyst: 403, viewer: 403 },
        patch: { owner: 200, analyst: 403, viewer: 403 },
        remove: { owner: 200, analyst: 403, viewer: 403 },
      } as const;
      // Non-owners first, so the owner's removal at the end does not change what they hit.
      for (const [role, user] of [
        ['viewer', viewer],
        ['analyst', analyst],
        ['owner', w.owner],
      ] as const) {
        const h = user.headers;
        const got = {
          list: (await t.app.inject({ url: members(w.workspaceId), headers: h })).statusCode,
          invite: (
            await t.app.inject({
              method: 'POST',
              url: `/api/workspaces/${w.workspaceId}/invitations`,
              headers: h,
              payload: { email: `added-by-${role}@example.test`, role: 'viewer' },
            })
          ).statusCode,
          patch: (
            await t.app.inject({
              method: 'PATCH',
              url: `${members(w.workspaceId)}/${target.userId}`,
              headers: h,
              payload: { role: 'analyst' },
            })
          ).statusCode,
          remove: (
            await t.app.inject({
              method: 'DELETE',
              url: `${members(w.workspaceId)}/${target.userId}`,
              headers: h,
            })
          ).statusCode,
        };
        for (const op of Object.keys(expected) as Array<keyof typeof expected>) {
          expect(got[op], `${role} ${op}`).toBe(expected[op][role]);
        }
      }
    });
  });
});

describe('workspace routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates a free workspace owned by the caller and lists it', async () => {
    const w = await createTestWorkspace(t.ctx, { plan: 'pro', name: 'First' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: w.owner.headers,
      payload: { name: 'Second' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ name: 'Second', plan: 'free', demo: false, role: 'owner' });
    const list = await t.app.inject({ url: '/api/workspaces', headers: w.owner.headers });
    expect(list.json().data.map((x: { name: string; plan: string }) => [x.name, x.plan])).toEqual([
      ['First', 'pro'],
      ['Second', 'free'],
    ]);
  });

  it('refuses a plan in the body, a blank name, no token and SSO-scoped sessions', async () => {
    const w = await createTestWorkspace(t.ctx);
    const withPlan = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: w.owner.headers,
      payload: { name: 'x', plan: 'enterprise' },
    });
    expect(withPlan.statusCode).toBe(400);
    const blank = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: w.owner.headers,
      payload: { name: ' ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/workspaces', payload: { name: 'x' } })).statusCode,
    ).toBe(401);
    const scoped = await addTestUser(t.ctx, {
      workspaceId: w.workspaceId,
      role: 'owner',
      workspaceScope: w.workspaceId,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: scoped.headers,
      payload: { name: 'x' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
  });
});
