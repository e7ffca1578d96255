import { timingSafeEqual } from 'node:crypto';
import {
  type AltchaV1Payload,
  altchaV1Challenge,
  altchaV1Signature,
  asAltchaV1Payload,
  parseAltchaPayload,
} from '@warden/protocol/altcha';
import { asV2, equalHexSignature, v2Signature, v2Solved, v2Supported } from './altcha-v2.ts';
import type { Warden } from './client.ts';

/**
 * Server-side check of the official ALTCHA widget's payload (the base64 JSON it puts in the form
 * field `altcha`), in the v1 form (widget 1.x–2.x) or the PoW v2 form (widget 3.x, altcha-v2.ts;
 * the result's `challenge`/`salt`/`number` are then the key prefix, salt and counter). Two ways:
 *
 * - `{warden}`: the challenge came from Warden's `GET /api/antibot/altcha/challenge` (or `/altcha/v2/challenge`). Shape,
 *   expiry and the solution are checked here; the signature (keyed by Warden) and single use
 *   (shared by every process) by Warden, in one /verify/challenge/verify call.
 * - `{hmacKey, store}`: challenges you sign yourself (altcha-lib's `createChallenge` with your
 *   HMAC key) while you migrate: everything is checked here, single use through `store`.
 */
export type AltchaFailure =
  | 'malformed'
  | 'unsupported_algorithm'
  | 'expired'
  | 'invalid_proof'
  | 'invalid_signature'
  | 'already_used'
  | 'unknown_challenge';

export type AltchaVerification =
  | { valid: true; challenge: string; salt: string; number: number }
  | { valid: false; reason: AltchaFailure };

/** Remembers used challenges until they expire; `claim` is true the first time only. */
export interface AltchaReplayStore {
  claim(key: string, expiresAtMs: number): boolean | Promise<boolean>;
}

/** A store for one process (tests, a single instance); share one across processes otherwise. */
export class MemoryAltchaReplayStore implements AltchaReplayStore {
  private readonly used = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  claim(key: string, expiresAtMs: number): boolean {
    const now = this.now();
    for (const [k, until] of this.used) if (until <= now) this.used.delete(k);
    if (this.used.has(key)) return false;
    this.used.set(key, expiresAtMs);
    return true;
  }
}

export type AltchaVerifyOptions =
  | { warden: Warden; now?: number }
  | {
      hmacKey: string;
      store: AltchaReplayStore;
      /** Reject a challenge whose salt has no `expires` parameter. Default true. */
      requireExpires?: boolean;
      /** Lifetime assumed for the replay store when the salt has no `expires`. Default 1 h. */
      maxAgeMs?: number;
      now?: number;
    };

const HEX64 = /^[0-9a-f]{64}$/;

function parse(payload: unknown): unknown {
  return parseAltchaPayload(payload, 4096);
}

/** The v1 form, its challenge a SHA-256 in hex. */
function decode(value: unknown): AltchaV1Payload | undefined {
  const p = asAltchaV1Payload(value);
  return p && HEX64.test(p.challenge) ? p : undefined;
}

function expiresMsOf(salt: string): number | undefined {
  const query = salt.indexOf('?');
  if (query === -1) return undefined;
  const expires = new URLSearchParams(salt.slice(query + 1)).get('expires');
  return expires !== null && /^\d{1,12}$/.test(expires) ? Number(expires) * 1000 : undefined;
}

function equalHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

export function assertAltchaOptions(options: unknown): asserts options is AltchaVerifyOptions {
  const o = options as Record<string, unknown> | undefined;
  if (!o || typeof o !== 'object') {
    throw new TypeError(
      'verifyAltchaPayload(payload, options): options must be {warden} or {hmacKey, store}.',
    );
  }
  if ('warden' in o) {
    if (typeof (o.warden as Warden | undefined)?.verifyChallenge !== 'function') {
      throw new TypeError('verifyAltchaPayload: options.warden must be a Warden client from @warden/node.');
    }
    return;
  }
  if (typeof o.hmacKey !== 'string' || o.hmacKey === '') {
    throw new TypeError('verifyAltchaPayload: options.hmacKey is required (or pass options.warden).');
  }
  if (typeof (o.store as AltchaReplayStore | undefined)?.claim !== 'function') {
    throw new TypeError(
      'verifyAltchaPayload: options.store is required with hmacKey (single use), e.g. new MemoryAltchaReplayStore().',
    );
  }
}

/** Check a solved ALTCHA payload: shape, algorithm, expiry, solution, signature, single use. */
export async function verifyAltchaPayload(
  payload: unknown,
  options: AltchaVerifyOptions,
): Promise<AltchaVerification> {
  assertAltchaOptions(options);
  const value = parse(payload);
  if (isV2Shaped(value)) return verifyV2(payload as string, value, options);
  const p = decode(value);
  if (!p) return { valid: false, reason: 'malformed' };
  if (p.algorithm.toUpperCase() !== 'SHA-256') return { valid: false, reason: 'unsupported_algorithm' };
  const now = options.now ?? Date.now();
  const expiresAt = expiresMsOf(p.salt);
  if (expiresAt !== undefined && now >= expiresAt) return { valid: false, reason: 'expired' };
  const solved = altchaV1Challenge(p.salt, p.number);
  if (!equalHex(solved, p.challenge)) return { valid: false, reason: 'invalid_proof' };
  const ok = { valid: true as const, challenge: p.challenge, salt: p.salt, number: p.number };

  if ('warden' in options) return byWarden(options.warden, payload as string, ok);

  if (expiresAt === undefined && options.requireExpires !== false) return { valid: false, reason: 'expired' };
  const expected = altchaV1Signature(options.hmacKey, p.challenge);
  if (!HEX64.test(p.signature) || !equalHex(expected, p.signature)) {
    return { valid: false, reason: 'invalid_signature' };
  }
  const until = expiresAt ?? now + (options.maxAgeMs ?? 3_600_000);
  if (!(await options.store.claim(p.challenge, until))) return { valid: false, reason: 'already_used' };
  return ok;
}

async function byWarden(
  warden: Warden,
  payload: string,
  ok: AltchaVerification,
): Promise<AltchaVerification> {
  const result = await warden.verifyChallenge({ altcha: payload });
  if (result.valid) return ok;
  const reason = result.reason === 'invalid_proof' ? 'invalid_signature' : (result.reason ?? 'invalid_proof');
  return { valid: false, reason };
}

function isV2Shaped(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'solution' in value && 'challenge' in value;
}

/** Warden never issues a v2 cost above this; a higher one is not derived before Warden saw it. */
const MAX_WARDEN_COST = 2 ** 14;

/**
 * The v2 form (widget 3.x). With `{warden}`: shape, expiry and the solution here (PBKDF2 with
 * node:crypto), signature and single use by Warden. With `{hmacKey, store}`: the signature first
 * (altcha-lib's `createChallenge({hmacSignatureSecret})`), then expiry, solution, single use.
 */
async function verifyV2(
  payload: string,
  value: unknown,
  options: AltchaVerifyOptions,
): Promise<AltchaVerification> {
  const p = asV2(value);
  if (!p) return { valid: false, reason: 'malformed' };
  if (!v2Supported(p.parameters.algorithm)) return { valid: false, reason: 'unsupported_algorithm' };
  const now = options.now ?? Date.now();
  const expiresAt = p.parameters.expiresAt === undefined ? undefined : p.parameters.expiresAt * 1000;
  const ok = {
    valid: true as const,
    challenge: p.parameters.keyPrefix,
    salt: p.parameters.salt,
    number: p.counter,
  };
  if ('warden' in options) {
    if (expiresAt !== undefined && now >= expiresAt) return { valid: false, reason: 'expired' };
    if (p.parameters.cost > MAX_WARDEN_COST) return { valid: false, reason: 'invalid_signature' };
    if (!(await v2Solved(p))) return { valid: false, reason: 'invalid_proof' };
    return byWarden(options.warden, payload, ok);
  }
  if (!equalHexSignature(p.signature, v2Signature(p.parameters, options.hmacKey))) {
    return { valid: false, reason: 'invalid_signature' };
  }
  if (expiresAt === undefined ? options.requireExpires !== false : now >= expiresAt) {
    return { valid: false, reason: 'expired' };
  }
  if (!(await v2Solved(p))) return { valid: false, reason: 'invalid_proof' };
  const until = expiresAt ?? now + (options.maxAgeMs ?? 3_600_000);
  if (!(await options.store.claim(`v2:${p.signature}`, until)))
    return { valid: false, reason: 'already_used' };
  return ok;
}
