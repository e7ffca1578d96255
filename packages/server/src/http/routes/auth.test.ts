import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryHotState } from '../../state/memory.ts';
import {
  addTestUser,
  createTestWorkspace,
  TEST_PASSWORD,
  type TestWorkspace,
} from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import { issueAccessToken } from '../../workspace/tokens.ts';

function login(t: TestApp, email: string, password: string, ip = '127.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: ip,
  });
}

describe('auth routes', () => {
  let t: TestApp;
  let w: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createTestWorkspace(t.ctx, { plan: 'pro', name: 'Acme' });
  });
  afterAll(() => t.close());

  describe('happy', () => {
    it('logs in and answers the user object with memberships', async () => {
      const res = await login(t, w.owner.email.toUpperCase(), TEST_PASSWORD);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.data.user).toEqual({
        id: w.owner.userId,
        email: w.owner.email,
        name: expect.any(String),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        memberships: [{ workspaceId: w.workspaceId, workspaceName: 'Acme', role: 'owner', plan: 'pro' }],
      });
      expect(body.data.accessToken.split('.')).toHaveLength(3);
      expect(body.data.refreshToken).toMatch(/^wrt_/);
      expect(body.data.expiresIn).toBe(3600);
      expect(res.body).not.toContain('password');
    });

    it('stores only a hash of the refresh token', async () => {
      const res = await login(t, w.owner.email, TEST_PASSWORD);
      const { refreshToken } = res.json().data;
      const rows = await t.ctx.database.db.selectFrom('refresh_tokens').select('token_hash').execute();
      expect(rows.some((r) => r.token_hash === refreshToken)).toBe(false);
    });

    it('GET /api/auth/me answers the user with the login access token', async () => {
      const { accessToken } = (await login(t, w.owner.email, TEST_PASSWORD)).json().data;
      const res = await t.app.inject({
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: w.owner.userId, email: w.owner.email });
      expect(res.json().data.memberships).toHaveLength(1);
    });

    it('logout revokes the session: the same access token then gets 401', async () => {
      const { accessToken } = (await login(t, w.owner.email, TEST_PASSWORD)).json().data;
      const headers = { authorization: `Bearer ${accessToken}` };
      const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers });
      expect(out.statusCode).toBe(200);
      expect(out.json().data).toEqual({ loggedOut: true });
      const me = await t.app.inject({ url: '/api/auth/me', headers });
      expect(me.statusCode).toBe(401);
      expect(me.json().error.code).toBe('unauthorized');
      // Other sessions of the same user live on.
      expect((await t.app.inject({ url: '/api/auth/me', headers: w.owner.headers })).statusCode).toBe(200);
    });
  });

  describe('error', () => {
    it('answers the same 401 invalid_credentials for a wrong password and an unknown e-mail', async () => {
      const wrong = await login(t, w.owner.email, 'not the password');
      const unknown = await login(t, 'nobody@example.test', TEST_PASSWORD);
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe('invalid_credentials');
      }
      expect(wrong.json().error.message).toBe(unknown.json().error.message);
    });

    it('refuses password login to an account without a password (SSO-only)', async () => {
      const sso = await addTestUser(t.ctx);
      await t.ctx.database.db
        .updateTable('users')
        .set({ password_hash: null })
        .where('id', '=', sso.userId)
        .execute();
      const res = await login(t, sso.email, TEST_PASSWORD);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('invalid_credentials');
    });

    it('answers 400 validation_failed for a malformed body and invalid_json for broken JSON', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'x' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(res.json().error.details.length).toBeGreaterThan(0);
      const broken = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      });
      expect(broken.json().error.code).toBe('invalid_json');
    });

    it('me and logout need a token', async () => {
      expect((await t.app.inject({ url: '/api/auth/me' })).statusCode).toBe(401);
      const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
      expect(out.statusCode).toBe(401);
      expect(out.json().error.code).toBe('unauthorized');
    });
  });

  describe('security', () => {
    it('refuses garbage, foreign-signed and expired tokens with 401 unauthorized', async () => {
      const principal = { userId: w.owner.userId, sessionId: w.owner.sessionId, workspaceScope: null };
      const foreign = await issueAccessToken('another instance secret that is long enough', principal);
      const expired = await issueAccessToken(t.ctx.secret, principal, Date.now() - 2 * 3600_000);
      for (const token of ['garbage', foreign, expired, `${w.owner.accessToken}x`]) {
        const res = await t.app.inject({
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode, token).toBe(401);
        expect(res.json().error.code).toBe('unauthorized');
      }
      const basic = await t.app.inject({ url: '/api/auth/me', headers: { authorization: 'Basic abc' } });
      expect(basic.statusCode).toBe(401);
    });

    it('a token of a session that does not exist is refused', async () => {
      const token = await issueAccessToken(t.ctx.secret, {
        userId: w.owner.userId,
        sessionId: 'no-such-session',
        workspaceScope: null,
      });
      const res = await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(401);
    });

    it('a workspace-scoped session only sees that membership', async () => {
      const other = await createTestWorkspace(t.ctx);
      const { addMembership } = await import('../../workspace/workspaces.ts');
      await addMembership(t.ctx.database.db, other.workspaceId, w.owner.userId, 'viewer', Date.now());
      const scoped = await addTestUser(t.ctx, {
        workspaceId: w.workspaceId,
        role: 'analyst',
        workspaceScope: w.workspaceId,
      });
      const res = await t.app.inject({ url: '/api/auth/me', headers: scoped.headers });
      expect(res.json().data.memberships.map((m: { workspaceId: string }) => m.workspaceId)).toEqual([
        w.workspaceId,
      ]);
    });
  });
});

describe('login throttle', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { WARDEN_RATE_LOGIN_PER_MINUTE_ACCOUNT: '3', WARDEN_RATE_LOGIN_PER_MINUTE_IP: '5' },
    });
    // A fixed clock: a minute boundary on the wall clock mid-test would open a fresh window.
    await t.ctx.hotState.close();
    t.ctx.hotState = new MemoryHotState(() => 1_700_000_030_000);
  });
  afterAll(() => t.close());

  it('answers 429 rate_limited with Retry-After after too many attempts on one account', {
    timeout: 60_000,
  }, async () => {
    const user = await addTestUser(t.ctx);
    for (let i = 0; i < 3; i++) {
      expect((await login(t, user.email, 'wrong', `10.0.0.${i + 1}`)).statusCode).toBe(401);
    }
    // Even the right password is refused now, from any address.
    const res = await login(t, user.email, TEST_PASSWORD, '10.0.0.99');
    expect(res.statusCode).toBe(429);
    expect(res.json().error.code).toBe('rate_limited');
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('throttles one address across many accounts', { timeout: 60_000 }, async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      codes.push((await login(t, `someone${i}@example.test`, 'x', '10.9.9.9')).statusCode);
    }
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes[5]).toBe(429);
    // Another address is not affected.
    expect((await login(t, 'fresh@example.test', 'x', '10.9.9.10')).statusCode).toBe(401);
  });

  it('attempts refused by the account limit use up none of the address budget', {
    timeout: 60_000,
  }, async () => {
    const user = await addTestUser(t.ctx);
    const ip = '10.7.7.7';
    // 3 attempts reach the password check (the account limit is 3), 4 more are refused by it.
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await login(t, user.email, 'wrong', ip)).statusCode);
    expect(codes).toEqual([401, 401, 401, 429, 429, 429, 429]);
    // The address has used 3 of its 5: two more accounts still reach the password check.
    expect((await login(t, 'other1@example.test', 'x', ip)).statusCode).toBe(401);
    expect((await login(t, 'other2@example.test', 'x', ip)).statusCode).toBe(401);
    expect((await login(t, 'other3@example.test', 'x', ip)).statusCode).toBe(429);
  });
});
