import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestSite } from '../testing/accounts.ts';
import { createTestApp, type TestApp } from '../testing/context.ts';
import { BROWSER_ORIGIN, serverHeaders } from '../testing/scoring-app.ts';
import { v2Work } from './altcha-v2.ts';
import { body, CHALLENGE_TTL_MS, parseId, secretNumber } from './index.ts';

/** ALTCHA PoW v2 (the altcha widget 3.x): Warden's challenge, solved by altcha-lib ≥ 2, verified. */
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
  return t.app.inject({ method: 'GET', url: `/api/antibot/altcha/v2/challenge?${query}`, headers });
}

interface Solved {
  challenge: { parameters: Record<string, unknown>; signature: string };
  solution: { counter: number; derivedKey: string; time?: number };
}

/** What the widget 3.x posts: base64 JSON of the challenge it got and the solution it found. */
async function solve(query = `sitekey=${site.siteKey}&difficulty=8`): Promise<Solved> {
  const res = await getChallenge(query);
  expect(res.statusCode).toBe(200);
  const challenge = res.json();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('not solved');
  return { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
}

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}

async function verifyProof(altcha: string, onSite: TestSite = site) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/antibot/verify/challenge/verify',
    headers: serverHeaders(onSite),
    payload: { altcha },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as { valid: boolean; reason?: string; challenge_id: string };
}

describe('GET /api/antibot/altcha/v2/challenge', () => {
  it('answers a signed PoW v2 challenge (PBKDF2/SHA-256, expiry, challenge id in data)', async () => {
    const res = await getChallenge(`sitekey=${site.siteKey}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(BROWSER_ORIGIN);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['parameters', 'signature']);
    expect(body.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(body.parameters).toEqual({
      algorithm: 'PBKDF2/SHA-256',
      cost: 4,
      data: { challenge_id: expect.stringMatching(/^ch_[0-9a-f]{24}\.[0-9a-z]+\.14\./) },
      expiresAt: Math.floor((clock + CHALLENGE_TTL_MS) / 1000),
      keyLength: 32,
      keyPrefix: expect.stringMatching(/^[0-9a-f]{32}$/),
      nonce: expect.stringMatching(/^[0-9a-f]{24}$/),
      salt: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it('maps the difficulty to counter range × PBKDF2 cost with the same expected work', async () => {
    expect(v2Work(8)).toEqual({ counters: 256, cost: 1 });
    expect(v2Work(12)).toEqual({ counters: 4096, cost: 1 });
    expect(v2Work(20)).toEqual({ counters: 4096, cost: 256 });
    const high = await getChallenge(`sitekey=${site.siteKey}&difficulty=high`, {
      referer: `${BROWSER_ORIGIN}/signup`,
    });
    expect(high.json().parameters.cost).toBe(256);
  });

  it('refuses an unknown site key and a foreign origin like the v1 route', async () => {
    const unknown = await getChallenge('sitekey=pk_nope');
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([401, 'invalid_site_key']);
    const foreign = await getChallenge(`sitekey=${site.siteKey}`, { origin: 'https://evil.example' });
    expect([foreign.statusCode, foreign.json().error.code]).toEqual([403, 'origin_not_allowed']);
  });
});

describe('the solved PoW v2 payload', () => {
  it('verifies once through /verify/challenge/verify, then already_used', async () => {
    const payload = encode(await solve());
    expect(await verifyProof(payload)).toMatchObject({
      valid: true,
      challenge_id: expect.stringMatching(/^ch_/),
    });
    expect(await verifyProof(payload)).toMatchObject({ valid: false, reason: 'already_used' });
  });

  it('rejects a forged signature, tampered parameters, a forged id and another site', async () => {
    const solved = await solve();
    const forged = { ...solved, challenge: { ...solved.challenge, signature: 'ab'.repeat(32) } };
    expect((await verifyProof(encode(forged))).reason).toBe('invalid_proof');
    const cheaper = {
      ...solved,
      challenge: {
        ...solved.challenge,
        parameters: { ...solved.challenge.parameters, cost: 1, keyPrefix: '00' },
      },
    };
    expect((await verifyProof(encode(cheaper))).reason).toBe('invalid_proof');
    const id = (solved.challenge.parameters.data as { challenge_id: string }).challenge_id;
    const otherId = {
      ...solved,
      challenge: {
        ...solved.challenge,
        parameters: { ...solved.challenge.parameters, data: { challenge_id: `${id.slice(0, -2)}AA` } },
      },
    };
    expect((await verifyProof(encode(otherId))).reason).toBe('unknown_challenge');
    const other = (await createTestWorkspace(t.ctx, { name: 'Other' })).site;
    expect((await verifyProof(encode(solved), other)).reason).toBe('unknown_challenge');
    // None of these consumed it.
    expect((await verifyProof(encode(solved))).valid).toBe(true);
  });

  it('rejects a wrong solution and an expired challenge', async () => {
    const solved = await solve();
    const wrong = { ...solved, solution: { ...solved.solution, counter: solved.solution.counter + 1 } };
    expect((await verifyProof(encode(wrong))).reason).toBe('invalid_proof');
    clock += CHALLENGE_TTL_MS;
    expect((await verifyProof(encode(solved))).reason).toBe('expired');
  });

  it('is single use across forms: the plain proof of the same challenge id is then already_used', async () => {
    const solved = await solve();
    expect((await verifyProof(encode(solved))).valid).toBe(true);
    const id = (solved.challenge.parameters.data as { challenge_id: string }).challenge_id;
    const parsed = parseId(id);
    if (!parsed) throw new Error('not a challenge id');
    const signed = body(site.id, parsed.salt, parsed.expiresAt, parsed.difficulty);
    const nonce = secretNumber(t.ctx.services.keys.pow, signed, 2 ** parsed.difficulty);
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify/challenge/verify',
      headers: serverHeaders(site),
      payload: { challenge_id: id, nonce },
    });
    expect(plain.json().data).toMatchObject({ valid: false, reason: 'already_used' });
  });

  it('counts as proof-of-work evidence in a decision (environment.pow.altcha), then as a replay', async () => {
    const payload = encode(await solve());
    const score = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/antibot/verify',
          headers: serverHeaders(site),
          payload: {
            context: { event_type: 'signup', account_id: 'acct_altcha2' },
            environment: { pow: { altcha: payload } },
          },
        })
      ).json().data;
    expect((await score()).signals).toContainEqual(expect.objectContaining({ rule: 'pow_verified' }));
    expect((await score()).signals).toContainEqual(expect.objectContaining({ rule: 'pow_replayed' }));
  });
});
