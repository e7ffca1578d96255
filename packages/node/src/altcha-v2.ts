import { createHash, pbkdf2, timingSafeEqual } from 'node:crypto';
import { altchaV2Password, altchaV2Signature, asAltchaV2Envelope } from '@warden/protocol/altcha';

/**
 * ALTCHA's proof of work v2 (the `altcha` widget 3.x, altcha-lib ≥ 2): the payload is base64 JSON
 * `{challenge: {parameters, signature}, solution: {counter, derivedKey, time?}}`. The solution is
 * the counter c whose key, derived from password = nonce ‖ uint32be(c) and `salt` with the
 * parameters' algorithm and cost, starts with `keyPrefix`. The signature is HMAC-SHA256 of the
 * parameters' JSON with sorted keys. Checked with node:crypto only (no dependency); the decoding and
 * the signature are the shared wire format of `@warden/protocol/altcha`, bundled into the build.
 */
export interface V2Parameters {
  algorithm: string;
  cost: number;
  keyLength: number;
  keyPrefix: string;
  nonce: string;
  salt: string;
  expiresAt?: number;
  [key: string]: unknown;
}

export interface V2Payload {
  parameters: V2Parameters;
  signature: string;
  counter: number;
  derivedKey: string;
}

const HEX = /^(?:[0-9a-f]{2})+$/;
const PBKDF2: Record<string, string> = {
  'PBKDF2/SHA-256': 'sha256',
  'PBKDF2/SHA-384': 'sha384',
  'PBKDF2/SHA-512': 'sha512',
};
const SHA: Record<string, string> = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

function positiveInt(value: unknown, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;
}

/** The v2 form of a decoded payload, or undefined when it is not one (or not well formed). */
export function asV2(value: unknown): V2Payload | undefined {
  const envelope = asAltchaV2Envelope(value);
  if (!envelope) return undefined;
  const { parameters: p, signature, counter, derivedKey } = envelope;
  const ok =
    typeof p.algorithm === 'string' &&
    positiveInt(p.cost, 2 ** 30) &&
    positiveInt(p.keyLength, 64) &&
    typeof p.keyPrefix === 'string' &&
    /^[0-9a-fA-F]+$/.test(p.keyPrefix) &&
    p.keyPrefix.length <= (p.keyLength as number) * 2 &&
    typeof p.nonce === 'string' &&
    HEX.test(p.nonce) &&
    typeof p.salt === 'string' &&
    (p.salt === '' || HEX.test(p.salt)) &&
    (p.expiresAt === undefined || (typeof p.expiresAt === 'number' && Number.isFinite(p.expiresAt))) &&
    HEX.test(derivedKey);
  if (!ok) return undefined;
  return { parameters: p as V2Parameters, signature, counter, derivedKey };
}

export function v2Supported(algorithm: string): boolean {
  return Object.hasOwn(PBKDF2, algorithm) || Object.hasOwn(SHA, algorithm);
}

/** HMAC-SHA256 of the parameters' canonical JSON (altcha-lib's `hmacSignatureSecret` signature). */
export function v2Signature(parameters: V2Parameters, hmacKey: string): string {
  return altchaV2Signature(hmacKey, parameters);
}

function deriveKey(p: V2Parameters, counter: number): Promise<Buffer> {
  const password = altchaV2Password(p.nonce, counter);
  const salt = Buffer.from(p.salt, 'hex');
  const pbkdf2Digest = PBKDF2[p.algorithm];
  if (pbkdf2Digest) {
    return new Promise((resolve, reject) =>
      pbkdf2(password, salt, p.cost, p.keyLength, pbkdf2Digest, (err, key) =>
        err ? reject(err) : resolve(key),
      ),
    );
  }
  const digest = SHA[p.algorithm] as string;
  let key = createHash(digest)
    .update(Buffer.concat([salt, password]))
    .digest();
  for (let i = 1; i < p.cost; i++) key = createHash(digest).update(key).digest();
  return Promise.resolve(key.subarray(0, p.keyLength));
}

/** True when the counter's derived key is the one given and starts with the key prefix. */
export async function v2Solved(payload: V2Payload): Promise<boolean> {
  const key = await deriveKey(payload.parameters, payload.counter);
  const given = Buffer.from(payload.derivedKey, 'hex');
  if (given.length !== key.length || !timingSafeEqual(given, key)) return false;
  return key.toString('hex').startsWith(payload.parameters.keyPrefix.toLowerCase());
}

export function equalHexSignature(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return /^[0-9a-f]+$/.test(a) && x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
