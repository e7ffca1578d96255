import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FuzzTarget, startFuzzTarget } from './harness.ts';
import { runHttpFuzz } from './http-fuzz.ts';
import { rawCaseArbitrary, sendRaw } from './raw-fuzz.ts';

/**
 * The fuzzer in CI: a fixed seed and a smaller count than `npm run fuzz` (40,000 by default), so a
 * failure here is reproducible with `npm run fuzz -- --seed 20261126 --count 1500`.
 */
const SEED = 20261126;

describe('fuzzed requests over every /api route and raw sockets', () => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await startFuzzTarget();
  }, 60_000);
  afterAll(() => target.close());

  it('answers no 5xx and every error in the envelope', { timeout: 600_000 }, async () => {
    expect(target.routes.length).toBeGreaterThan(60);
    const report = await runHttpFuzz({ ...target, seed: SEED, count: 1500 });
    expect(report.failures.slice(0, 5)).toEqual([]);
    expect(report.sent).toBe(1500);
    // The generator reaches handlers, not only the validators: successes and several 4xx kinds.
    const statuses = Object.keys(report.byStatus).map(Number);
    expect(statuses.some((s) => s >= 200 && s < 300)).toBe(true);
    expect(statuses.filter((s) => s >= 400).length).toBeGreaterThan(3);
  });

  it('answers raw-socket mutations in the envelope or closes, and stays up', {
    timeout: 300_000,
  }, async () => {
    const headers = {
      'X-Site-Key': target.fixture.ws.site.siteKey,
      'X-Secret-Key': target.fixture.ws.site.secretKey,
      Origin: 'https://shop.example',
    };
    const cases = fc.sample(
      rawCaseArbitrary(['/api/antibot/verify', '/api/antibot/collect', '/api/rules'], headers),
      {
        seed: SEED,
        numRuns: 300,
      },
    );
    const problems: string[] = [];
    for (let i = 0; i < cases.length; i += 10) {
      const batch = await Promise.all(cases.slice(i, i + 10).map((c) => sendRaw(target.port, c, 8_000)));
      for (const p of batch) if (p) problems.push(p);
    }
    expect(problems.slice(0, 5)).toEqual([]);
    const health = await fetch(`${target.baseUrl}/healthz`);
    expect(health.status).toBe(200);
  });
});
