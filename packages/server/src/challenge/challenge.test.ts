import { solveChallenge } from 'altcha-lib/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { testSite } from '../scoring/test-fixtures.ts';
import { MemoryHotState } from '../state/memory.ts';
import { createTestContext } from '../testing/context.ts';
import { effectiveDifficulty, parseDifficulty, siteFloor } from './difficulty.ts';
import {
  CHALLENGE_TTL_MS,
  type ChallengeDescriptor,
  issueChallenge,
  MAX_WRONG_ANSWERS,
  sweepUsedChallenges,
  verifyChallenge,
} from './index.ts';

async function solve(d: ChallengeDescriptor): Promise<number> {
  const solution = await solveChallenge(d.challenge, d.salt, d.algorithm, d.maxnumber).promise;
  if (!solution) throw new Error('not solved');
  return solution.number;
}

describe('parseDifficulty', () => {
  it('accepts 1–26 and named levels', () => {
    expect(parseDifficulty(undefined)).toBeUndefined();
    expect(parseDifficulty(1)).toBe(1);
    expect(parseDifficulty(26)).toBe(26);
    expect(parseDifficulty('low')).toBe(14);
    expect(parseDifficulty('medium')).toBe(17);
    expect(parseDifficulty('high')).toBe(20);
  });

  it.each([0, 27, 3.5, -1, 'extreme', '14', true, {}, null, Number.NaN])(
    'rejects %s with validation_failed',
    (v) => {
      try {
        parseDifficulty(v);
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).code).toBe('validation_failed');
        expect((err as ApiError).details?.[0]?.path).toBe('body.difficulty');
      }
    },
  );
});

describe('difficulty', () => {
  it('raises low values to the floor, takes the site floor from settings', () => {
    expect(effectiveDifficulty({ requested: 5, floor: 14, ipRate: 1, deviceRate: 0, risk: undefined })).toBe(
      14,
    );
    expect(effectiveDifficulty({ requested: 18, floor: 14, ipRate: 1, deviceRate: 0, risk: undefined })).toBe(
      18,
    );
    expect(siteFloor(testSite('a', '{"powFloor":10}'), 14)).toBe(10);
    expect(siteFloor(testSite('a', '{"powFloor":"x"}'), 14)).toBe(14);
    expect(siteFloor(testSite('a', 'not json'), 14)).toBe(14);
  });

  it('rises with the recent challenge rate and the risk', () => {
    const base = { requested: undefined, floor: 14, deviceRate: 0 };
    expect(effectiveDifficulty({ ...base, ipRate: 5, risk: undefined })).toBe(14);
    expect(effectiveDifficulty({ ...base, ipRate: 10, risk: undefined })).toBe(16);
    expect(effectiveDifficulty({ ...base, ipRate: 1000, risk: undefined })).toBe(20);
    expect(effectiveDifficulty({ ...base, ipRate: 1, risk: 70 })).toBe(16);
    expect(effectiveDifficulty({ ...base, ipRate: 1000, risk: 90 })).toBe(22);
    expect(effectiveDifficulty({ ...base, requested: 26, ipRate: 1000, risk: 90 })).toBe(26);
  });
});

describe('issue and verify', () => {
  let ctx: AppContext;
  let clock = 1_700_000_000_000;
  const site = testSite('site_a');
  beforeEach(async () => {
    clock = 1_700_000_000_000;
    ctx = await createTestContext({ env: { WARDEN_POW_FLOOR: '1' }, now: () => clock });
  });
  afterEach(async () => {
    await ctx.hotState.close();
    await ctx.database.close();
  });

  it('issues an ALTCHA v1 descriptor that altcha-lib solves, verifies once', async () => {
    const d = await issueChallenge(ctx, site, { difficulty: 10, ip: '198.51.100.1' });
    expect(d).toMatchObject({ algorithm: 'SHA-256', difficulty: 10, maxnumber: 1024 });
    expect(d.expires_at).toBe(new Date(clock + CHALLENGE_TTL_MS).toISOString());
    const n = await solve(d);
    const ok = await verifyChallenge(ctx, site, { challenge_id: d.challenge_id, nonce: String(n) });
    expect(ok).toEqual({
      valid: true,
      challenge_id: d.challenge_id,
      verified_at: new Date(clock).toISOString(),
    });
    const again = await verifyChallenge(ctx, site, { challenge_id: d.challenge_id, nonce: n });
    expect(again).toEqual({ valid: false, reason: 'already_used', challenge_id: d.challenge_id });
  });

  it('stays single-use across a restart of an in-process hot state, and unused challenges still verify', async () => {
    const used = await issueChallenge(ctx, site, { difficulty: 8, ip: '198.51.100.1' });
    const n = await solve(used);
    expect((await verifyChallenge(ctx, site, { challenge_id: used.challenge_id, nonce: n })).valid).toBe(
      true,
    );
    const unused = await issueChallenge(ctx, site, { difficulty: 8, ip: '198.51.100.1' });
    const m = await solve(unused);
    // Restart: same secret and database, a new (empty) in-memory hot state.
    clock += 1000;
    await ctx.hotState.close();
    ctx.hotState = new MemoryHotState(() => clock);
    expect(await verifyChallenge(ctx, site, { challenge_id: used.challenge_id, nonce: n })).toEqual({
      valid: false,
      reason: 'already_used',
      challenge_id: used.challenge_id,
    });
    expect((await verifyChallenge(ctx, site, { challenge_id: unused.challenge_id, nonce: m })).valid).toBe(
      true,
    );
    expect((await verifyChallenge(ctx, site, { challenge_id: unused.challenge_id, nonce: m })).reason).toBe(
      'already_used',
    );
  });

  it('forgets recorded uses once their challenges have expired', async () => {
    const d = await issueChallenge(ctx, site, { difficulty: 8, ip: '198.51.100.1' });
    expect(
      (await verifyChallenge(ctx, site, { challenge_id: d.challenge_id, nonce: await solve(d) })).valid,
    ).toBe(true);
    const rows = () => ctx.database.db.selectFrom('used_challenges').selectAll().execute();
    expect(await rows()).toHaveLength(1);
    expect(await sweepUsedChallenges(ctx.database.db, Date.parse(d.expires_at) - 1)).toBe(0);
    expect(await sweepUsedChallenges(ctx.database.db, Date.parse(d.expires_at))).toBe(1);
    expect(await rows()).toHaveLength(0);
  });

  it('uses the floor (default 14) when no difficulty is asked', async () => {
    const c2 = await createTestContext();
    const d = await issueChallenge(c2, site, { ip: '198.51.100.1' });
    expect(d.difficulty).toBe(14);
    expect(d.maxnumber).toBe(2 ** 14);
    await c2.hotState.close();
    await c2.database.close();
  });

  it('answers invalid_proof for a wrong nonce, and burns the challenge after repeated guesses', async () => {
    const d = await issueChallenge(ctx, site, { difficulty: 8, ip: '198.51.100.1' });
    const n = await solve(d);
    const wrong = await verifyChallenge(ctx, site, { challenge_id: d.challenge_id, nonce: n + 1 });
    expect(wrong).toEqual({ valid: false, reason: 'invalid_proof', challenge_id: d.challenge_id });
    expect((await verifyChallenge(ctx, site, { challenge_id: d.challenge_id, nonce: 'abc' })).reason).toBe(
      'invalid_proof',
    );
    expect((await verifyChallenge(ctx, site, { challenge_id: d.challenge_id, nonce: n })).valid).toBe(true);

    const e = await issueChallenge(ctx, site, { difficulty: 8, ip: '198.51.100.1' });
    const m = await solve(e);
    for (let i = 0; i < MAX_WRONG_ANSWERS; i++) {
      await verifyChallenge(ctx, site, { challenge_id: e.challenge_id, nonce: m + 1 + i });
    }
    expect((await verifyChallenge(ctx, site, { challenge_id: e.challenge_id, nonce: m })).reason).toBe(
      'already_used',
    );
  });

  it('answers expired after 5 minutes', async () => {
    const d = await issueChallenge(ctx, site, { difficulty: 6, ip: '198.51.100.1' });
    const n = await solve(d);
    clock += CHALLENGE_TTL_MS;
    expect(await verifyChallenge(ctx, site, { challenge_id: d.challenge_id, nonce: n })).toEqual({
      valid: false,
      reason: 'expired',
      challenge_id: d.challenge_id,
    });
  });

  it('answers unknown_challenge for another site, a forged or a garbage id', async () => {
    const d = await issueChallenge(ctx, site, { difficulty: 6, ip: '198.51.100.1' });
    const n = await solve(d);
    const other = testSite('site_b');
    expect((await verifyChallenge(ctx, other, { challenge_id: d.challenge_id, nonce: n })).reason).toBe(
      'unknown_challenge',
    );
    const forged = d.challenge_id.replace(/\.(\d+)\./, '.5.');
    expect((await verifyChallenge(ctx, site, { challenge_id: forged, nonce: n })).reason).toBe(
      'unknown_challenge',
    );
    expect((await verifyChallenge(ctx, site, { challenge_id: 'nope', nonce: 1 })).reason).toBe(
      'unknown_challenge',
    );
    // Still valid for its own site afterwards.
    expect((await verifyChallenge(ctx, site, { challenge_id: d.challenge_id, nonce: n })).valid).toBe(true);
  });

  it('raises difficulty for an IP asking many challenges, and with risk', async () => {
    let last = 0;
    for (let i = 0; i < 12; i++)
      last = (await issueChallenge(ctx, site, { difficulty: 10, ip: '198.51.100.9' })).difficulty;
    expect(last).toBeGreaterThan(10);
    expect(
      (await issueChallenge(ctx, site, { difficulty: 10, ip: '198.51.100.10', risk: 90 })).difficulty,
    ).toBe(14);
  });
});
