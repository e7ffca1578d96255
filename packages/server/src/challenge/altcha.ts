import { timingSafeEqual } from 'node:crypto';
import {
  type AltchaV1Payload,
  altchaV1Challenge,
  altchaV1Signature,
  asAltchaV1Payload,
  parseAltchaPayload,
} from '@warden/protocol/altcha';
import type { SitesTable } from '../storage/schema.ts';
import { altchaKey, asV2Payload, checkAltchaV2Payload } from './altcha-v2.ts';
import type { ChallengeDeps } from './index.ts';
import {
  type ChallengeVerification,
  checkChallengeId,
  consumeChallenge,
  counted,
  countWrongAnswer,
  issueChallenge,
  secretNumber,
} from './index.ts';

/**
 * The official ALTCHA widget against Warden's proof of work (docs/altcha.md). A Warden challenge
 * in ALTCHA's own JSON: the salt is `<challenge_id>?expires=<unix s>` (ALTCHA reads `expires`
 * from it), `challenge` = SHA-256(salt + n) for the same secret n, and `signature` = HMAC-SHA256
 * of the challenge with a key of this site that only the server holds. The widget's payload
 * (base64 JSON `{algorithm, challenge, number, salt, signature, took?}`) is then checked here:
 * signature, expiry, solution, and single use shared with the plain challenge of the same id.
 */
export interface AltchaChallenge {
  algorithm: 'SHA-256';
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/** Longest payload accepted (a real one is ~300 bytes). */
export const MAX_ALTCHA_PAYLOAD = 2048;

function signatureOf(ctx: ChallengeDeps, site: SitesTable, challenge: string): string {
  return altchaV1Signature(altchaKey(ctx, site), challenge);
}

export async function issueAltchaChallenge(
  ctx: ChallengeDeps,
  site: SitesTable,
  options: { difficulty?: number | undefined; ip: string },
): Promise<AltchaChallenge> {
  const descriptor = await issueChallenge(ctx, site, options);
  const expires = Math.floor(Date.parse(descriptor.expires_at) / 1000);
  const salt = `${descriptor.challenge_id}?expires=${expires}`;
  const checked = checkChallengeId(ctx, site, descriptor.challenge_id);
  if (typeof checked === 'string') throw new Error(`a challenge just issued is ${checked}`);
  const n = secretNumber(ctx.services.keys.pow, checked.signed, descriptor.maxnumber);
  const challenge = altchaV1Challenge(salt, n);
  return {
    algorithm: 'SHA-256',
    challenge,
    maxnumber: descriptor.maxnumber,
    salt,
    signature: signatureOf(ctx, site, challenge),
  };
}

/** The widget's payload as JSON (either form), or undefined when it is not base64 JSON. */
function parsePayload(payload: unknown): unknown {
  return parseAltchaPayload(payload, MAX_ALTCHA_PAYLOAD);
}

/** The widget's payload in the v1 form decoded, or undefined when it is not one. */
export function decodeAltchaPayload(payload: unknown): AltchaV1Payload | undefined {
  return asAltchaV1Payload(parsePayload(payload));
}

function hexEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

/**
 * Check a solved ALTCHA payload, v1 (widget 1.x–2.x, or 3.x given the v1 route) or v2 (widget
 * 3.x given the v2 route, altcha-v2.ts); a valid one is consumed (single use, like verifyChallenge).
 */
export async function verifyAltchaPayload(
  ctx: ChallengeDeps,
  site: SitesTable,
  payload: unknown,
): Promise<ChallengeVerification> {
  const v2 = asV2Payload(parsePayload(payload));
  return counted(
    ctx,
    await (v2 ? checkAltchaV2Payload(ctx, site, v2) : checkAltchaPayload(ctx, site, payload)),
  );
}

async function checkAltchaPayload(
  ctx: ChallengeDeps,
  site: SitesTable,
  payload: unknown,
): Promise<ChallengeVerification> {
  const decoded = decodeAltchaPayload(payload);
  const id = decoded ? (decoded.salt.split('?')[0] ?? '') : '';
  const fail = (reason: ChallengeVerification['reason']): ChallengeVerification => ({
    valid: false,
    ...(reason ? { reason } : {}),
    challenge_id: id,
  });
  if (decoded?.algorithm.toUpperCase() !== 'SHA-256') return fail('unknown_challenge');
  const checked = checkChallengeId(ctx, site, id);
  if (typeof checked === 'string') return fail(checked);
  if (!/^[0-9a-f]{64}$/.test(decoded.challenge) || !/^[0-9a-f]{64}$/.test(decoded.signature)) {
    return fail('invalid_proof');
  }
  if (!hexEqual(decoded.signature, signatureOf(ctx, site, decoded.challenge))) return fail('invalid_proof');
  if (!hexEqual(altchaV1Challenge(decoded.salt, decoded.number), decoded.challenge)) {
    await countWrongAnswer(ctx, site, checked.parsed);
    return fail('invalid_proof');
  }
  return consumeChallenge(ctx, site, id, checked.parsed);
}
