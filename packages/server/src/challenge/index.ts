import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { ChallengeOutcome } from '../metrics.ts';
import type { HotState } from '../state/hot-state.ts';
import type { Database, DB } from '../storage/db.ts';
import { deleteExpiredRows } from '../storage/expired-rows.ts';
import type { SitesTable } from '../storage/schema.ts';
import { sha256Hex } from '../workspace/tokens.ts';
import { effectiveDifficulty, type PowFloors, siteFloor } from './difficulty.ts';
import type { ChallengeDescriptor, ChallengeFailure, ChallengeVerification } from './types.ts';

export { parseDifficulty } from './difficulty.ts';
export type { ChallengeDescriptor, ChallengeFailure, ChallengeVerification } from './types.ts';

/**
 * Proof-of-work in the ALTCHA v1 form (SPEC §5). The challenge is stateless: `challenge_id`
 * carries the salt, the expiry and the difficulty, bound to the site by an HMAC, and the secret
 * number n is derived from the same key, so any process verifies any challenge. Single use is
 * the one shared bit of state: `claimOnce` in hot state (Redis in scale mode), and with the
 * in-process hot state also a `used_challenges` row, which outlives a restart.
 */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Wrong answers a challenge tolerates before it is burned (stops enumerating n through verify). */
export const MAX_WRONG_ANSWERS = 10;
const RATE_WINDOW_MS = 10 * 60 * 1000;

/**
 * What issuing and checking challenges use, in the shape of the process's context (which is passed
 * as it is): the hot state (rates, single use), the PoW key, the clock, the floors, the
 * `used_challenges` table and the challenge counter.
 */
export interface ChallengeDeps {
  readonly hotState: Pick<HotState, 'hit' | 'claimOnce' | 'remembersSince'>;
  readonly config: Pick<Config, 'powFloor'>;
  readonly database: Pick<Database, 'db'>;
  now(): number;
  readonly services: {
    readonly keys: { readonly pow: Buffer };
    readonly memo: { readonly powFloor: PowFloors };
    readonly metrics: { challenge(outcome: ChallengeOutcome): void };
  };
}

export interface ParsedId {
  salt: string;
  expiresAt: number;
  difficulty: number;
}

/** The proof-of-work key derived from the instance secret (derived once, in services.ts's `SigningKeys`). */
export function powKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('warden:pow:v1').digest();
}

/** `key`: powKey(secret). */
export function hmac(key: Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text).digest();
}

export function body(siteId: string, salt: string, expiresAt: number, difficulty: number): string {
  return `${siteId}|${salt}|${expiresAt}|${difficulty}`;
}

/** The secret solution: derived, never stored. */
export function secretNumber(key: Buffer, signed: string, maxnumber: number): number {
  const bytes = hmac(key, `n|${signed}`);
  return bytes.readUIntBE(0, 6) % (maxnumber + 1);
}

export function parseId(id: string): ParsedId | undefined {
  // ch_<salt>.<expires base36>.<difficulty>.<mac>
  const m = /^ch_([0-9a-f]{24})\.([0-9a-z]{1,12})\.(\d{1,2})\.([A-Za-z0-9_-]{22})$/.exec(id);
  if (!m) return undefined;
  return { salt: m[1]!, expiresAt: Number.parseInt(m[2]!, 36), difficulty: Number(m[3]) };
}

export async function issueChallenge(
  ctx: ChallengeDeps,
  site: SitesTable,
  options: {
    difficulty?: number | undefined;
    ip: string;
    deviceId?: string | undefined;
    risk?: number | undefined;
  },
): Promise<ChallengeDescriptor> {
  const [ipRate, deviceRate] = await Promise.all([
    options.ip ? ctx.hotState.hit(`pow:rate:ip:${site.id}:${options.ip}`, RATE_WINDOW_MS) : 0,
    options.deviceId ? ctx.hotState.hit(`pow:rate:dev:${site.id}:${options.deviceId}`, RATE_WINDOW_MS) : 0,
  ]);
  const difficulty = effectiveDifficulty({
    requested: options.difficulty,
    floor: siteFloor(site, ctx.config.powFloor, ctx.services.memo.powFloor),
    ipRate,
    deviceRate,
    risk: options.risk,
  });
  const maxnumber = 2 ** difficulty;
  const salt = randomBytes(12).toString('hex');
  const expiresAt = ctx.now() + CHALLENGE_TTL_MS;
  const signed = body(site.id, salt, expiresAt, difficulty);
  const tag = hmac(ctx.services.keys.pow, `id|${signed}`).subarray(0, 16).toString('base64url');
  const n = secretNumber(ctx.services.keys.pow, signed, maxnumber);
  ctx.services.metrics.challenge('issued');
  return {
    challenge_id: `ch_${salt}.${expiresAt.toString(36)}.${difficulty}.${tag}`,
    algorithm: 'SHA-256',
    salt,
    challenge: sha256Hex(salt + n),
    maxnumber,
    difficulty,
    expires_at: new Date(expiresAt).toISOString(),
  };
}

function parseNonce(nonce: unknown): number | undefined {
  if (typeof nonce === 'number') return Number.isSafeInteger(nonce) && nonce >= 0 ? nonce : undefined;
  if (typeof nonce === 'string' && /^\d{1,15}$/.test(nonce)) return Number(nonce);
  return undefined;
}

/** Check a proof; a valid one is consumed (single use across processes). */
export async function verifyChallenge(
  ctx: ChallengeDeps,
  site: SitesTable,
  proof: { challenge_id: string; nonce: string | number },
): Promise<ChallengeVerification> {
  return counted(ctx, await checkProof(ctx, site, proof));
}

/** The verification, counted in warden_challenges_total (solved, or the reason it failed). */
export function counted(ctx: ChallengeDeps, verification: ChallengeVerification): ChallengeVerification {
  ctx.services.metrics.challenge(verification.valid ? 'solved' : (verification.reason ?? 'invalid_proof'));
  return verification;
}

async function checkProof(
  ctx: ChallengeDeps,
  site: SitesTable,
  proof: { challenge_id: string; nonce: string | number },
): Promise<ChallengeVerification> {
  const id = typeof proof.challenge_id === 'string' ? proof.challenge_id : '';
  const fail = (reason: ChallengeFailure): ChallengeVerification => ({
    valid: false,
    reason,
    challenge_id: id,
  });
  const checked = checkChallengeId(ctx, site, id);
  if (typeof checked === 'string') return fail(checked);
  const { parsed, signed } = checked;
  const n = parseNonce(proof.nonce);
  const maxnumber = 2 ** parsed.difficulty;
  if (n === undefined || n !== secretNumber(ctx.services.keys.pow, signed, maxnumber)) {
    await countWrongAnswer(ctx, site, parsed);
    return fail('invalid_proof');
  }
  return consumeChallenge(ctx, site, id, parsed);
}

/** The challenge named by `id`, when it was issued for this site and has not expired. */
export function checkChallengeId(
  ctx: ChallengeDeps,
  site: SitesTable,
  id: string,
): { parsed: ParsedId; signed: string } | 'unknown_challenge' | 'expired' {
  const parsed = parseId(id);
  if (!parsed || parsed.difficulty < 1 || parsed.difficulty > 26) return 'unknown_challenge';
  const signed = body(site.id, parsed.salt, parsed.expiresAt, parsed.difficulty);
  const expectedTag = hmac(ctx.services.keys.pow, `id|${signed}`).subarray(0, 16);
  const givenTag = Buffer.from(id.slice(id.lastIndexOf('.') + 1), 'base64url');
  if (givenTag.length !== expectedTag.length || !timingSafeEqual(givenTag, expectedTag)) {
    return 'unknown_challenge';
  }
  if (ctx.now() >= parsed.expiresAt) return 'expired';
  return { parsed, signed };
}

function usedKeyOf(site: SitesTable, parsed: ParsedId): string {
  return `pow:used:${site.id}:${parsed.salt}`;
}

/** A wrong answer; after MAX_WRONG_ANSWERS the challenge is burned. */
export async function countWrongAnswer(
  ctx: ChallengeDeps,
  site: SitesTable,
  parsed: ParsedId,
): Promise<void> {
  const wrong = await ctx.hotState.hit(`pow:wrong:${site.id}:${parsed.salt}`, CHALLENGE_TTL_MS);
  if (wrong >= MAX_WRONG_ANSWERS) {
    await ctx.hotState.claimOnce(usedKeyOf(site, parsed), parsed.expiresAt - ctx.now() + 60_000);
  }
}

/** A correct answer: valid once, `already_used` after (across processes). */
export async function consumeChallenge(
  ctx: ChallengeDeps,
  site: SitesTable,
  id: string,
  parsed: ParsedId,
): Promise<ChallengeVerification> {
  const now = ctx.now();
  const used = { valid: false, reason: 'already_used' as const, challenge_id: id };
  if (!(await ctx.hotState.claimOnce(usedKeyOf(site, parsed), parsed.expiresAt - now + 60_000))) return used;
  if (!(await recordUse(ctx, site.id, parsed))) return used;
  return { valid: true, challenge_id: id, verified_at: new Date(now).toISOString() };
}

/**
 * With a hot state that began empty when this process started (the in-process store), a use is
 * also recorded in `used_challenges`, so that a restart does not forget it; false when the row
 * was there already (used before the restart). A shared store (Redis) outlives processes alone.
 */
async function recordUse(ctx: ChallengeDeps, siteId: string, parsed: ParsedId): Promise<boolean> {
  if (ctx.hotState.remembersSince === 0) return true;
  const result = await ctx.database.db
    .insertInto('used_challenges')
    .values({ site_id: siteId, salt: parsed.salt, expires_at: parsed.expiresAt })
    .onConflict((oc) => oc.columns(['site_id', 'salt']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Forget recorded uses of challenges that have expired (they are refused as expired anyway). */
export function sweepUsedChallenges(db: Kysely<DB>, now: number): Promise<number> {
  // Expired at `expires_at` itself: everything up to and including `now` (integer ms).
  return deleteExpiredRows(db, { table: 'used_challenges', column: 'expires_at' }, now + 1);
}
