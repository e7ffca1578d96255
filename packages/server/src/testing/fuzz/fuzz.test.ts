import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FuzzTarget, startFuzzTarget } from './harness.ts';
import { runHttpFuzz } from './http-fuzz.ts';
import { runRawFuzz } from './raw-fuzz.ts';

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
    const problems = await runRawFuzz({
      port: target.port,
      site: target.fixture.ws.site,
      seed: SEED,
      count: 300,
    });
    expect(problems.slice(0, 5)).toEqual([]);
    const health = await fetch(`${target.baseUrl}/healthz`);
    expect(health.status).toBe(200);
  });
});
