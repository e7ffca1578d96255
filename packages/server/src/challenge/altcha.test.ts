import { solveChallenge } from 'altcha-lib/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestSite } from '../testing/accounts.ts';
import { createTestApp, type TestApp } from '../testing/context.ts';
import { BROWSER_ORIGIN, serverHeaders } from '../testing/scoring-app.ts';
import { CHALLENGE_TTL_MS } from './index.ts';

/** The ALTCHA challenge route and the widget's payload through the challenge and scoring routes. */
let clock: number;
let t: TestApp;
let site: TestSite;

beforeEach(async () => {
  clock = Date.now();
  t = await createTestApp({ now: () => clock });
  site = (await createTestWorkspace(t.ctx)).site;
});
afterEach(() => t.close());

function getChallenge(query: string, headers: Record<string, string> = { origin: BROWSER_ORIGIN }) {
  return t.app.inject({ method: 'GET', url: `/api/antibot/altcha/challenge?${query}`, headers });
}

/** What the altcha widget posts: base64 JSON of the challenge and the number found. */
async function solvedPayload(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await getChallenge(`sitekey=${site.siteKey}`);
  const c = res.json();
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('not solved');
  const payload = {
    algorithm: c.algorithm,
    challenge: c.challenge,
    number: solution.number,
    salt: c.salt,
    signature: c.signature,
    took: solution.took,
    ...overrides,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

function verifyProof(body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/antibot/verify/challenge/verify',
    headers: serverHeaders(site),
    payload: body as Record<string, unknown>,
  });
}

describe('GET /api/antibot/altcha/challenge', () => {
  it("answers ALTCHA's own JSON, no envelope, with CORS for the site's origin", async () => {
    const res = await getChallenge(`sitekey=${site.siteKey}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(BROWSER_ORIGIN);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['algorithm', 'challenge', 'maxnumber', 'salt', 'signature']);
    expect(body.algorithm).toBe('SHA-256');
    expect(body.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(body.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(body.maxnumber).toBe(2 ** 14);
    const expires = Math.floor((clock + CHALLENGE_TTL_MS) / 1000);
    expect(body.salt).toMatch(
      new RegExp(`^ch_[0-9a-f]{24}\\.[0-9a-z]+\\.14\\.[\\w-]{22}\\?expires=${expires}$`),
    );
  });

  it('takes the Referer origin when a same-origin GET carries no Origin, and a difficulty', async () => {
    const res = await getChallenge(`sitekey=${site.siteKey}&difficulty=high`, {
      referer: `${BROWSER_ORIGIN}/signup`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().maxnumber).toBe(2 ** 20);
  });

  it('refuses an unknown site key, a foreign or missing origin and a bad difficulty in the envelope', async () => {
    const unknown = await getChallenge('sitekey=pk_nope');
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([401, 'invalid_site_key']);
    const foreign = await getChallenge(`sitekey=${site.siteKey}`, { origin: 'https://evil.example' });
    expect([foreign.statusCode, foreign.json().error.code]).toEqual([403, 'origin_not_allowed']);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const none = await getChallenge(`sitekey=${site.siteKey}`, {});
    expect(none.json().error.code).toBe('origin_not_allowed');
    const missing = await getChallenge('');
    expect([missing.statusCode, missing.json().error.code]).toEqual([400, 'validation_failed']);
    const bad = await getChallenge(`sitekey=${site.siteKey}&difficulty=99`);
    expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'validation_failed']);
  });
});

describe('the solved ALTCHA payload', () => {
  it('verifies once through /verify/challenge/verify, then already_used', async () => {
    const payload = await solvedPayload();
    const first = await verifyProof({ altcha: payload });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ valid: true, challenge_id: expect.stringMatching(/^ch_/) });
    expect((await verifyProof({ altcha: payload })).json().data).toMatchObject({
      valid: false,
      reason: 'already_used',
    });
  });

  it('rejects a forged signature, a wrong number, another site and an expired challenge', async () => {
    const forged = await solvedPayload({ signature: 'ab'.repeat(32) });
    expect((await verifyProof({ altcha: forged })).json().data.reason).toBe('invalid_proof');
    const wrong = await solvedPayload({ number: 2 ** 14 + 1 });
    expect((await verifyProof({ altcha: wrong })).json().data.reason).toBe('invalid_proof');
    const garbage = await verifyProof({ altcha: 'bm90IGpzb24=' });
    expect(garbage.json().data).toMatchObject({ valid: false, reason: 'unknown_challenge' });

    const other = (await createTestWorkspace(t.ctx, { name: 'Other' })).site;
    const payload = await solvedPayload();
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify/challenge/verify',
      headers: serverHeaders(other),
      payload: { altcha: payload },
    });
    expect(elsewhere.json().data.reason).toBe('unknown_challenge');

    clock += CHALLENGE_TTL_MS;
    expect((await verifyProof({ altcha: payload })).json().data.reason).toBe('expired');
  });

  it('counts as proof-of-work evidence in a decision (environment.pow.altcha), single use', async () => {
    const payload = await solvedPayload();
    const score = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/antibot/verify',
        headers: serverHeaders(site),
        payload: {
          context: { event_type: 'signup', account_id: 'acct_altcha' },
          environment: { pow: { altcha: payload } },
        },
      });
    const first = (await score()).json().data;
    expect(first.signals).toContainEqual(expect.objectContaining({ rule: 'pow_verified' }));
    const second = (await score()).json().data;
    expect(second.signals).toContainEqual(expect.objectContaining({ rule: 'pow_replayed' }));
  });

  it('is refused by the schema when it is not a string, with the path of the field', async () => {
    const res = await verifyProof({ altcha: 42 });
    expect([res.statusCode, res.json().error.code]).toEqual([400, 'validation_failed']);
    expect(res.json().error.details[0].path).toBe('body.altcha');
    const pow = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: serverHeaders(site),
      payload: { context: { event_type: 'login', account_id: 'a' }, environment: { pow: { altcha: '' } } },
    });
    expect(pow.json().error.details[0].path).toBe('body.environment.pow.altcha');
  });
});
