import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { altchaV2Password, altchaV2Signature, asAltchaV2Envelope } from '@warden/protocol/altcha';
import type { SitesTable } from '../storage/schema.ts';
import type { ChallengeDeps } from './index.ts';
import {
  type ChallengeVerification,
  checkChallengeId,
  consumeChallenge,
  countWrongAnswer,
  hmac,
  issueChallenge,
  secretNumber,
} from './index.ts';

/**
 * ALTCHA's proof of work v2 (the `altcha` widget 3.x; altcha-lib ≥ 2 `createChallenge` in its
 * deterministic mode), for a Warden challenge. The widget searches the counter c whose key
 * PBKDF2-SHA256(password = nonce ‖ uint32be(c), salt, cost, 32 bytes) starts with `keyPrefix`.
 * Warden derives c from the challenge id (as the v1 form's secret number), so nothing is stored;
 * `keyPrefix` is the first half of the key for that c. The parameters carry the challenge id in
 * `data.challenge_id` and are signed with the site's ALTCHA key: HMAC-SHA256 of their JSON with
 * sorted keys (altcha-lib's `canonicalJSON`). The payload the widget posts is base64 JSON
 * `{challenge: {parameters, signature}, solution: {counter, derivedKey, time}}`.
 *
 * Warden's difficulty d (2^d tries of the v1 form) maps to 2^min(d, 12) counter values, each
 * costing 2^(d − 12) PBKDF2 iterations above 12: the same expected work, and the widget's
 * per-try overhead (one WebCrypto call) stays bounded at high difficulties.
 */
export const ALTCHA_V2_ALGORITHM = 'PBKDF2/SHA-256';
const KEY_LENGTH = 32;
const PREFIX_BYTES = 16;
const MAX_COUNTER_BITS = 12;

export interface AltchaV2Parameters {
  algorithm: string;
  cost: number;
  data: { challenge_id: string };
  expiresAt: number;
  keyLength: number;
  keyPrefix: string;
  nonce: string;
  salt: string;
}

export interface AltchaV2Challenge {
  parameters: AltchaV2Parameters;
  signature: string;
}

const pbkdf2Async = promisify(pbkdf2);

/** Counter range and PBKDF2 cost for Warden difficulty d (expected work as 2^d v1 tries). */
export function v2Work(difficulty: number): { counters: number; cost: number } {
  const counterBits = Math.min(difficulty, MAX_COUNTER_BITS);
  return { counters: 2 ** counterBits, cost: 2 ** (difficulty - counterBits) };
}

/** The site's ALTCHA signing key (both forms); only the server holds it. */
export function altchaKey(ctx: ChallengeDeps, site: SitesTable): Buffer {
  return hmac(ctx.services.keys.pow, `altcha|${site.id}`);
}

function signatureOf(ctx: ChallengeDeps, site: SitesTable, parameters: unknown): string {
  return altchaV2Signature(altchaKey(ctx, site), parameters);
}

function secretCounter(ctx: ChallengeDeps, signed: string, counters: number): number {
  return secretNumber(ctx.services.keys.pow, `v2|${signed}`, counters - 1);
}

export async function issueAltchaV2Challenge(
  ctx: ChallengeDeps,
  site: SitesTable,
  options: { difficulty?: number | undefined; ip: string },
): Promise<AltchaV2Challenge> {
  const descriptor = await issueChallenge(ctx, site, options);
  const checked = checkChallengeId(ctx, site, descriptor.challenge_id);
  if (typeof checked === 'string') throw new Error(`a challenge just issued is ${checked}`);
  const { counters, cost } = v2Work(checked.parsed.difficulty);
  const nonce = checked.parsed.salt;
  const salt = randomBytes(16).toString('hex');
  const counter = secretCounter(ctx, checked.signed, counters);
  const key = await pbkdf2Async(
    altchaV2Password(nonce, counter),
    Buffer.from(salt, 'hex'),
    cost,
    KEY_LENGTH,
    'sha256',
  );
  const parameters: AltchaV2Parameters = {
    algorithm: ALTCHA_V2_ALGORITHM,
    cost,
    data: { challenge_id: descriptor.challenge_id },
    expiresAt: Math.floor(checked.parsed.expiresAt / 1000),
    keyLength: KEY_LENGTH,
    keyPrefix: key.subarray(0, PREFIX_BYTES).toString('hex'),
    nonce,
    salt,
  };
  return { parameters, signature: signatureOf(ctx, site, parameters) };
}

export interface AltchaV2Payload {
  challenge: { parameters: Record<string, unknown> & { data: { challenge_id: string } }; signature: string };
  solution: { counter: number; derivedKey: string };
}

/** A decoded payload in the v2 form (`{challenge: {parameters, signature}, solution}`), or undefined. */
export function asV2Payload(value: unknown): AltchaV2Payload | undefined {
  const envelope = asAltchaV2Envelope(value);
  const data = envelope?.parameters.data;
  if (!envelope || typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  if (typeof (data as Record<string, unknown>).challenge_id !== 'string') return undefined;
  return value as AltchaV2Payload;
}

function hexEqual(a: string, b: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(a) || !/^[0-9a-f]{64}$/.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

/**
 * Check a v2 payload for this site: the challenge id (issued here, not expired), the signature
 * over the parameters, the counter (the one Warden derived; any other counter reaching the
 * 16-byte key prefix is a 2^-128 chance), then single use shared with the other forms of the id.
 */
export async function checkAltchaV2Payload(
  ctx: ChallengeDeps,
  site: SitesTable,
  payload: AltchaV2Payload,
): Promise<ChallengeVerification> {
  const id = payload.challenge.parameters.data.challenge_id;
  const fail = (reason: ChallengeVerification['reason']): ChallengeVerification => ({
    valid: false,
    ...(reason ? { reason } : {}),
    challenge_id: id,
  });
  const checked = checkChallengeId(ctx, site, id);
  if (typeof checked === 'string') return fail(checked);
  const parameters = payload.challenge.parameters;
  if (!hexEqual(payload.challenge.signature, signatureOf(ctx, site, parameters)))
    return fail('invalid_proof');
  // Signed by Warden, so these are Warden's own values; checked anyway against the id.
  const { counters, cost } = v2Work(checked.parsed.difficulty);
  if (parameters.cost !== cost || parameters.algorithm !== ALTCHA_V2_ALGORITHM) return fail('invalid_proof');
  const counter = payload.solution.counter;
  if (counter >= counters || counter !== secretCounter(ctx, checked.signed, counters)) {
    await countWrongAnswer(ctx, site, checked.parsed);
    return fail('invalid_proof');
  }
  return consumeChallenge(ctx, site, id, checked.parsed);
}
