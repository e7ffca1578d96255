import type { AddressInfo } from 'node:net';
import { createChallenge, solveChallenge } from 'altcha-lib/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestSite } from '../../server/src/testing/accounts.ts';
import { createTestApp, type TestApp } from '../../server/src/testing/context.ts';
import { BROWSER_ORIGIN } from '../../server/src/testing/scoring-app.ts';
import { MemoryAltchaReplayStore, verifyAltchaPayload } from './altcha.ts';
import { Warden } from './client.ts';

interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
}

/** What the widget submits for a challenge: base64 JSON with the number it found. */
async function solve(c: Challenge, overrides: Record<string, unknown> = {}): Promise<string> {
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('not solved');
  const payload = { ...c, number: solution.number, took: solution.took, ...overrides };
  delete (payload as { maxnumber?: number }).maxnumber;
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

describe('verifyAltchaPayload with your own HMAC key (altcha-lib challenges)', () => {
  const hmacKey = 'altcha-hmac-key-of-the-shop';

  it('accepts a solved payload once, then already_used', async () => {
    const store = new MemoryAltchaReplayStore();
    const c = await createChallenge({ hmacKey, maxnumber: 5000, expires: new Date(Date.now() + 60_000) });
    const payload = await solve(c);
    expect(await verifyAltchaPayload(payload, { hmacKey, store })).toMatchObject({ valid: true });
    expect(await verifyAltchaPayload(payload, { hmacKey, store })).toEqual({
      valid: false,
      reason: 'already_used',
    });
  });

  it('rejects a wrong key, a wrong number, an expired or unexpiring challenge and garbage', async () => {
    const store = new MemoryAltchaReplayStore();
    const c = await createChallenge({ hmacKey, maxnumber: 5000, expires: new Date(Date.now() + 60_000) });
    const payload = await solve(c);
    expect(await verifyAltchaPayload(payload, { hmacKey: 'other', store })).toEqual({
      valid: false,
      reason: 'invalid_signature',
    });
    expect(await verifyAltchaPayload(await solve(c, { number: 5001 }), { hmacKey, store })).toEqual({
      valid: false,
      reason: 'invalid_proof',
    });
    expect(await verifyAltchaPayload(payload, { hmacKey, store, now: Date.now() + 120_000 })).toEqual({
      valid: false,
      reason: 'expired',
    });
    const forever = await solve(await createChallenge({ hmacKey, maxnumber: 5000 }));
    expect(await verifyAltchaPayload(forever, { hmacKey, store })).toEqual({
      valid: false,
      reason: 'expired',
    });
    expect(await verifyAltchaPayload(forever, { hmacKey, store, requireExpires: false })).toMatchObject({
      valid: true,
    });
    expect(await verifyAltchaPayload('not base64 json', { hmacKey, store })).toEqual({
      valid: false,
      reason: 'malformed',
    });
  });

  it('names a missing option', async () => {
    await expect(verifyAltchaPayload('x', { hmacKey } as never)).rejects.toThrow(
      /options\.store is required/,
    );
    await expect(verifyAltchaPayload('x', {} as never)).rejects.toThrow(/options\.hmacKey is required/);
  });
});

describe('verifyAltchaPayload with Warden (challenges from /api/antibot/altcha/challenge)', () => {
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
    const res = await fetch(`${baseUrl}/api/antibot/altcha/challenge?sitekey=${site.siteKey}`, {
      headers: { origin: BROWSER_ORIGIN },
    });
    return (await res.json()) as Challenge;
  }

  it('checks locally, then Warden checks the signature and single use', async () => {
    const payload = await solve(await wardenChallenge());
    expect(await verifyAltchaPayload(payload, { warden })).toMatchObject({ valid: true });
    expect(await verifyAltchaPayload(payload, { warden })).toEqual({ valid: false, reason: 'already_used' });
  });

  it('reports a forged signature and a wrong number', async () => {
    const c = await wardenChallenge();
    expect(await verifyAltchaPayload(await solve(c, { signature: 'cd'.repeat(32) }), { warden })).toEqual({
      valid: false,
      reason: 'invalid_signature',
    });
    expect(await verifyAltchaPayload(await solve(c, { number: 1 + 2 ** 14 }), { warden })).toEqual({
      valid: false,
      reason: 'invalid_proof',
    });
  });
});
