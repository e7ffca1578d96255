import { can, OPERATIONS, planAllows, ROLES } from '@warden/protocol/permissions';
import { describe, expect, it } from 'vitest';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './passwords.ts';
import { ACCESS_TOKEN_TTL_S, issueAccessToken, verifyAccessToken } from './tokens.ts';

describe('passwords', () => {
  it('verifies the right password only', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('wrong', hash)).toBe(false);
    expect(await verifyPassword('anything', DUMMY_PASSWORD_HASH)).toBe(false);
    expect(await verifyPassword('anything', 'garbage')).toBe(false);
  });
});

describe('access tokens', () => {
  const secret = 's'.repeat(40);
  const principal = { userId: 'u1', sessionId: 'sess1', workspaceScope: null };

  it('round-trips the principal and expires after one hour', async () => {
    const now = Date.now();
    const token = await issueAccessToken(secret, principal, now);
    expect(await verifyAccessToken(secret, token, now)).toEqual(principal);
    expect(await verifyAccessToken(secret, token, now + (ACCESS_TOKEN_TTL_S - 5) * 1000)).toEqual(principal);
    expect(await verifyAccessToken(secret, token, now + (ACCESS_TOKEN_TTL_S + 5) * 1000)).toBeNull();
  });

  it('carries the SSO workspace scope', async () => {
    const scoped = { ...principal, workspaceScope: 'ws1' };
    expect(await verifyAccessToken(secret, await issueAccessToken(secret, scoped))).toEqual(scoped);
  });

  it('rejects tokens signed with another secret, tampered or garbage', async () => {
    const token = await issueAccessToken(secret, principal);
    expect(await verifyAccessToken('t'.repeat(40), token)).toBeNull();
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'admin', sid: 'x' })).toString('base64url');
    expect(await verifyAccessToken(secret, `${h}.${forged}.${s}`)).toBeNull();
    expect(await verifyAccessToken(secret, `${h}.${p}.`)).toBeNull();
    expect(await verifyAccessToken(secret, 'garbage')).toBeNull();
  });
});

describe('permission matrix (SPEC §6)', () => {
  const expected: Record<string, string[]> = {
    owner: [...OPERATIONS],
    analyst: ['read', 'site.update', 'rules.write', 'decisions.label', 'audit.read'],
    viewer: ['read'],
  };
  it.each(ROLES)('%s may do exactly its operations', (role) => {
    expect(OPERATIONS.filter((op) => can(role, op)).sort()).toEqual([...(expected[role] ?? [])].sort());
  });

  it('gates features by plan, with the demo workspace exempt', () => {
    expect(planAllows({ plan: 'free', demo: false }, 'webhooks')).toBe(false);
    expect(planAllows({ plan: 'pro', demo: false }, 'webhooks')).toBe(true);
    expect(planAllows({ plan: 'pro', demo: false }, 'sso')).toBe(false);
    expect(planAllows({ plan: 'enterprise', demo: false }, 'sso')).toBe(true);
    expect(planAllows({ plan: 'free', demo: true }, 'sso')).toBe(true);
    expect(planAllows({ plan: 'free', demo: false }, 'identity')).toBe(false);
  });
});
