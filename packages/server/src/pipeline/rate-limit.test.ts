import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../testing/accounts.ts';
import type { TestApp } from '../testing/context.ts';
import {
  browserHeaders,
  createScoringTestApp,
  fakeEngine,
  loginEvent,
  serverHeaders,
} from '../testing/scoring-app.ts';

describe('scoring rate limits (SPEC §8, §10)', () => {
  let t: TestApp;
  let w: TestWorkspace;
  let other: TestWorkspace;
  beforeAll(async () => {
    t = await createScoringTestApp({
      services: { engine: fakeEngine() },
      env: {
        WARDEN_RATE_BROWSER_PER_SECOND: '3',
        WARDEN_RATE_SERVER_PER_SECOND: '3',
        WARDEN_TRUSTED_PROXIES: '127.0.0.1',
      },
    });
    w = await createTestWorkspace(t.ctx);
    other = await createTestWorkspace(t.ctx);
  });
  afterAll(() => t.close());

  const verify = (site = w.site, payload: object = loginEvent()) =>
    t.app.inject({ method: 'POST', url: '/api/antibot/verify', headers: serverHeaders(site), payload });
  const collect = (ip: string, siteKey = w.site.siteKey) =>
    t.app.inject({
      method: 'POST',
      url: '/api/antibot/collect',
      headers: { ...browserHeaders(siteKey), 'x-forwarded-for': ip },
      payload: loginEvent(),
    });

  /** Send until refused (a window boundary may let a few more through); return the refusal. */
  async function exhaust(send: () => Promise<{ statusCode: number }>) {
    for (let i = 0; i < 20; i++) {
      const res = await send();
      if (res.statusCode === 429) return res;
      expect(res.statusCode).toBe(201);
    }
    throw new Error('never rate limited');
  }

  it('limits server routes per site with 429 rate_limited and Retry-After in whole seconds', async () => {
    const refused = (await exhaust(() => verify())) as Awaited<ReturnType<typeof verify>>;
    expect(refused.json().error.code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    // Another site has its own budget; so does a browser client of the same site.
    expect((await verify(other.site)).statusCode).toBe(201);
  });

  it('checks validation and auth before the rate limit', async () => {
    await exhaust(() => verify());
    const invalid = await verify(w.site, { context: {} });
    expect(invalid.json().error.code).toBe('validation_failed');
    const wrongSecret = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: { 'x-site-key': w.site.siteKey, 'x-secret-key': 'nope' },
      payload: loginEvent(),
    });
    expect(wrongSecret.json().error.code).toBe('invalid_secret_key');
  });

  it('limits browser routes per site per client IP (from a trusted proxy)', async () => {
    const refused = await exhaust(() => collect('198.51.100.10'));
    expect(refused.statusCode).toBe(429);
    expect((await collect('198.51.100.11')).statusCode).toBe(201);
    expect((await collect('198.51.100.10', other.site.siteKey)).statusCode).not.toBe(429);
  });

  it('counts a batch as one request', async () => {
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/events/batch',
      headers: { ...browserHeaders(w.site.siteKey), 'x-forwarded-for': '198.51.100.20' },
      payload: { events: Array.from({ length: 10 }, (_, i) => loginEvent(`b${i}`)) },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.succeeded).toBe(10);
  });
});

describe('RateLimit-* headers on the scoring routes', () => {
  // A clock that stands still: every request falls in the same one-second window.
  const frozen = Date.parse('2026-01-01T00:00:00.250Z');
  let t: TestApp;
  let w: TestWorkspace;
  beforeAll(async () => {
    t = await createScoringTestApp({
      services: { engine: fakeEngine() },
      env: { WARDEN_RATE_SERVER_PER_SECOND: '3', WARDEN_RATE_BROWSER_PER_SECOND: '2' },
      now: () => frozen,
    });
    w = await createTestWorkspace(t.ctx);
  });
  afterAll(() => t.close());

  const quota = (res: { headers: Record<string, unknown> }) => ({
    limit: res.headers['ratelimit-limit'],
    remaining: res.headers['ratelimit-remaining'],
    reset: res.headers['ratelimit-reset'],
    policy: res.headers['ratelimit-policy'],
  });

  it('count down with every request and agree with Retry-After on the 429', async () => {
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/antibot/verify',
        headers: serverHeaders(w.site),
        payload: loginEvent(),
      });
    const answers = [await send(), await send(), await send(), await send()];
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 429]);
    expect(answers.map((r) => quota(r).remaining)).toEqual(['2', '1', '0', '0']);
    for (const res of answers) expect(quota(res)).toMatchObject({ limit: '3', reset: '1', policy: '3;w=1' });
    const refused = answers[3];
    expect(refused?.headers['retry-after']).toBe(refused?.headers['ratelimit-reset']);
  });

  it('are sent on browser routes (and exposed to the page) but not on errors before the limit', async () => {
    const headers = { ...browserHeaders(w.site.siteKey), 'x-forwarded-for': '198.51.100.30' };
    const challenge = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/challenge',
      headers,
      payload: {},
    });
    expect(challenge.statusCode).toBe(201);
    expect(quota(challenge)).toMatchObject({ limit: '2', remaining: '1' });
    expect(String(challenge.headers['access-control-expose-headers'])).toContain('RateLimit-Remaining');
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/collect',
      headers,
      payload: { context: {} },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.headers['ratelimit-limit']).toBeUndefined();
  });
});
