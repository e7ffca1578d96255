import { createHash, createHmac } from 'node:crypto';

// The wire format of the official ALTCHA widget's payload, written once: the server checks
// payloads of the challenges it issues (challenge/altcha.ts, altcha-v2.ts) and the Node SDK
// checks payloads before, or instead of, asking Warden (altcha.ts, altcha-v2.ts). What each does
// with a payload (which failure it answers, which key signs) stays with it; the decoding, the
// solution and the signatures are these. It needs node:crypto, so it is the subpath export
// `@warden/protocol/altcha`, kept out of the browser-safe main entry.

/** The payload as JSON (either form), or undefined when it is not base64 JSON of at most `maxLength` characters. */
export function parseAltchaPayload(payload: unknown, maxLength: number): unknown {
  if (typeof payload !== 'string' || payload.length === 0 || payload.length > maxLength) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The v1 form (widget 1.x–2.x): `{algorithm, challenge, number, salt, signature, took?}`. */
export interface AltchaV1Payload {
  algorithm: string;
  challenge: string;
  number: number;
  salt: string;
  signature: string;
}

/** A decoded payload in the v1 form (its fields' types; hex is the caller's to check), or undefined. */
export function asAltchaV1Payload(value: unknown): AltchaV1Payload | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const p = value as Record<string, unknown>;
  const ok =
    typeof p.algorithm === 'string' &&
    typeof p.challenge === 'string' &&
    typeof p.salt === 'string' &&
    typeof p.signature === 'string' &&
    typeof p.number === 'number' &&
    Number.isSafeInteger(p.number) &&
    p.number >= 0;
  return ok ? (p as unknown as AltchaV1Payload) : undefined;
}

/** The v1 challenge a number solves: hex SHA-256 of `salt` followed by the number. */
export function altchaV1Challenge(salt: string, number: number | string): string {
  return createHash('sha256').update(`${salt}${number}`).digest('hex');
}

/** The v1 signature: hex HMAC-SHA256 of the challenge. */
export function altchaV1Signature(key: string | Buffer, challenge: string): string {
  return createHmac('sha256', key).update(challenge).digest('hex');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The v2 form (widget 3.x): `{challenge: {parameters, signature}, solution: {counter, derivedKey, time?}}`. */
export interface AltchaV2Envelope {
  parameters: Record<string, unknown>;
  signature: string;
  counter: number;
  derivedKey: string;
}

/**
 * A decoded payload in the v2 form, its parameters not yet looked at (each side checks those it
 * uses), or undefined. The counter is a uint32 (it is written big-endian into the password).
 */
export function asAltchaV2Envelope(value: unknown): AltchaV2Envelope | undefined {
  if (!isRecord(value) || !isRecord(value.challenge) || !isRecord(value.solution)) return undefined;
  const { parameters, signature } = value.challenge;
  const { counter, derivedKey } = value.solution;
  if (!isRecord(parameters) || typeof signature !== 'string') return undefined;
  if (typeof counter !== 'number' || !Number.isInteger(counter) || counter < 0 || counter > 0xffffffff)
    return undefined;
  if (typeof derivedKey !== 'string') return undefined;
  return { parameters, signature, counter, derivedKey };
}

function sortKeys(value: unknown): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .flatMap((key) => (value[key] === undefined ? [] : [[key, sortKeys(value[key])]])),
  );
}

/** JSON with keys sorted at every level and undefined values left out (altcha-lib's canonicalJSON). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** The v2 signature: hex HMAC-SHA256 of the parameters' canonical JSON (altcha-lib's `hmacSignatureSecret`). */
export function altchaV2Signature(key: string | Buffer, parameters: unknown): string {
  return createHmac('sha256', key).update(canonicalJson(parameters)).digest('hex');
}

/** The v2 password of a counter: the nonce's bytes followed by the counter as uint32 big-endian. */
export function altchaV2Password(nonceHex: string, counter: number): Buffer {
  const nonce = Buffer.from(nonceHex, 'hex');
  const password = Buffer.alloc(nonce.length + 4);
  nonce.copy(password);
  password.writeUInt32BE(counter, nonce.length);
  return password;
}
