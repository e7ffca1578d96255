import type { AddressInfo } from 'node:net';
import { type Challenge, createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey as pbkdf2Key } from 'altcha-lib/algorithms/pbkdf2';
import { deriveKey as shaKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestSite } from '../../server/src/testing/accounts.ts';
import { createTestApp, type TestApp } from '../../server/src/testing/context.ts';
import { BROWSER_ORIGIN } from '../../server/src/testing/scoring-app.ts';
import { MemoryAltchaReplayStore, verifyAltchaPayload } from './altcha.ts';
import { Warden } from './client.ts';

type DeriveKey = typeof pbkdf2Key;

/** What the widget 3.x submits: base64 JSON of the signed challenge and its solution. */
async function solve(
  challenge: Challenge,
  deriveKey: DeriveKey = pbkdf2Key,
  change: (solution: { counter: number; derivedKey: string }) => object = (s) => s,
): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('not solved');
  const payload = {
    challenge: { parameters: challenge.parameters, signature: challenge.signature },
    solution: change(solution),
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

describe('verifyAltchaPayload, PoW v2, with your own HMAC key (altcha-lib ≥ 2 challenges)', () => {
  const hmacKey = 'altcha-hmac-key-of-the-shop';
  const inAMinute = () => new Date(Date.now() + 60_000);

  it('accepts a PBKDF2 payload (deterministic mode) once, then already_used', async () => {
    const store = new MemoryAltchaReplayStore();
    const challenge = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: 50,
      counter: 40,
      deriveKey: pbkdf2Key,
      expiresAt: inAMinute(),
      hmacSignatureSecret: hmacKey,
    });
    const payload = await solve(challenge);
    expect(await verifyAltchaPayload(payload, { hmacKey, store })).toEqual({
      valid: true,
      challenge: challenge.parameters.keyPrefix,
      salt: challenge.parameters.salt,
      number: 40,
    });
    expect(await verifyAltchaPayload(payload, { hmacKey, store })).toEqual({
      valid: false,
      reason: 'already_used',
    });
  });

  it('accepts an iterated SHA-256 payload with a key prefix (random mode)', async () => {
    const store = new MemoryAltchaReplayStore();
    const challenge = await createChallenge({
      algorithm: 'SHA-256',
      cost: 3,
      keyPrefix: '0',
      deriveKey: shaKey,
      expiresAt: inAMinute(),
      hmacSignatureSecret: hmacKey,
    });
    expect(await verifyAltchaPayload(await solve(challenge, shaKey), { hmacKey, store })).toMatchObject({
      valid: true,
    });
  });

  it('rejects a wrong key, a wrong counter or key, tampered parameters, expiry and scrypt', async () => {
    const store = new MemoryAltchaReplayStore();
    const options = {
      algorithm: 'PBKDF2/SHA-256',
      cost: 20,
      counter: 30,
      deriveKey: pbkdf2Key,
      expiresAt: inAMinute(),
      hmacSignatureSecret: hmacKey,
    };
    const challenge = await createChallenge(options);
    const payload = await solve(challenge);
    const reason = async (p: string, extra: object = {}) =>
      verifyAltchaPayload(p, { hmacKey, store, ...extra }).then((r) => (r.valid ? 'valid' : r.reason));
    expect(await reason(payload, { hmacKey: 'other' })).toBe('invalid_signature');
    expect(await reason(await solve(challenge, pbkdf2Key, (s) => ({ ...s, counter: s.counter + 1 })))).toBe(
      'invalid_proof',
    );
    expect(
      await reason(await solve(challenge, pbkdf2Key, (s) => ({ ...s, derivedKey: 'ab'.repeat(32) }))),
    ).toBe('invalid_proof');
    const edited = (edit: (p: { challenge: { parameters: Record<string, unknown> } }) => void) => {
      const decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
      edit(decoded);
      return Buffer.from(JSON.stringify(decoded)).toString('base64');
    };
    expect(await reason(edited((p) => Object.assign(p.challenge.parameters, { cost: 1 })))).toBe(
      'invalid_signature',
    );
    expect(await reason(payload, { now: Date.now() + 120_000 })).toBe('expired');
    const { expiresAt: _, ...unexpiring } = options;
    const forever = await solve(await createChallenge(unexpiring));
    expect(await reason(forever)).toBe('expired');
    expect(await reason(forever, { requireExpires: false })).toBe('valid');
    const scrypt = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
    scrypt.challenge.parameters.algorithm = 'SCRYPT';
    expect(await reason(Buffer.from(JSON.stringify(scrypt)).toString('base64'))).toBe(
      'unsupported_algorithm',
    );
    const broken = { challenge: { parameters: {}, signature: 'x' }, solution: { counter: -1 } };
    expect(await reason(Buffer.from(JSON.stringify(broken)).toString('base64'))).toBe('malformed');
    expect(await reason(payload)).toBe('valid');
  });
});

describe('verifyAltchaPayload, PoW v2, with Warden (challenges from /api/antibot/altcha/v2/challenge)', () => {
  let server: TestApp;
  let site: TestSite;
  let baseUrl: string;
  let warden: Warden;

  beforeAll(async () => {
    server = await createTestApp();
    site = (await createTestWorkspace(server.ctx)).site;
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    warden = new Warden({ baseUrl, siteKey: site.siteKey, secretKey: site.secretKey });
  });
  afterAll(() => server.close());

  async function wardenChallenge(): Promise<Challenge> {
    const res = await fetch(
      `${baseUrl}/api/antibot/altcha/v2/challenge?sitekey=${site.siteKey}&difficulty=8`,
      {
        headers: { origin: BROWSER_ORIGIN },
      },
    );
    return (await res.json()) as Challenge;
  }

  it('checks locally, then Warden checks the signature and single use', async () => {
    const payload = await solve(await wardenChallenge());
    expect(await verifyAltchaPayload(payload, { warden })).toMatchObject({ valid: true });
    expect(await verifyAltchaPayload(payload, { warden })).toEqual({ valid: false, reason: 'already_used' });
  });

  it('reports a forged signature, a wrong counter and an expired challenge', async () => {
    const c = await wardenChallenge();
    const forged = await solve({ ...c, signature: 'cd'.repeat(32) });
    expect(await verifyAltchaPayload(forged, { warden })).toEqual({
      valid: false,
      reason: 'invalid_signature',
    });
    const wrong = await solve(c, pbkdf2Key, (s) => ({ ...s, counter: s.counter + 1 }));
    expect(await verifyAltchaPayload(wrong, { warden })).toEqual({ valid: false, reason: 'invalid_proof' });
    const payload = await solve(c);
    expect(await verifyAltchaPayload(payload, { warden, now: Date.now() + 10 * 60_000 })).toEqual({
      valid: false,
      reason: 'expired',
    });
    expect(await verifyAltchaPayload(payload, { warden })).toMatchObject({ valid: true });
  });
});
