import { timingSafeEqual } from 'node:crypto';
import {
  parseWebhookSignatureHeader,
  webhookSignatureHeader,
  webhookSignatureHex,
} from '@warden/protocol/webhook-signature';

export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyOptions {
  /** Allowed difference between the signature timestamp and now, either way. Default 300 (5 min). */
  toleranceSeconds?: number;
  /** Current time in milliseconds (tests). Default Date.now(). */
  now?: number;
}

export type SignatureCheck =
  | { valid: true; timestamp: number }
  | { valid: false; reason: 'malformed_header' | 'timestamp_out_of_tolerance' | 'no_matching_signature' };

/**
 * Throws a TypeError for a setup that would let forged or replayed deliveries through: no secret,
 * an empty secret, or a tolerance that is not a non-negative finite number of seconds.
 */
export function assertVerifyConfig(secret: string | readonly string[], options: VerifyOptions = {}): void {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '')) {
    throw new TypeError('The webhook signing secret is missing or empty.');
  }
  const tolerance = options.toleranceSeconds;
  if (tolerance !== undefined && !(Number.isFinite(tolerance) && tolerance >= 0)) {
    throw new TypeError(`toleranceSeconds must be a non-negative number, got ${tolerance}.`);
  }
}

/**
 * Verify `Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]` over the exact raw body bytes.
 * Compares in constant time; accepts any matching v1 entry (and any of several secrets while
 * you rotate); rejects timestamps older or newer than the tolerance.
 */
export function verifyWebhookSignature(
  rawBody: Uint8Array | string,
  header: string | undefined | null,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): SignatureCheck {
  assertVerifyConfig(secret, options);
  const parsed = parseWebhookSignatureHeader(header);
  if (parsed === null) return { valid: false, reason: 'malformed_header' };
  const { timestamp, signatures: candidates } = parsed;
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowS = Math.floor((options.now ?? Date.now()) / 1000);
  const t = Number(timestamp);
  if (Math.abs(nowS - t) > tolerance) return { valid: false, reason: 'timestamp_out_of_tolerance' };
  const secrets = typeof secret === 'string' ? [secret] : secret;
  let matched = false;
  for (const key of secrets) {
    const expected = Buffer.from(webhookSignatureHex(key, timestamp, rawBody), 'hex');
    for (const candidate of candidates) {
      // Every comparison runs to the end: no early exit that would time the match.
      if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true;
    }
  }
  return matched ? { valid: true, timestamp: t } : { valid: false, reason: 'no_matching_signature' };
}

/** Build a `Service-Signature` header (tests of your receiver, local tools). */
export function signWebhookPayload(
  rawBody: Uint8Array | string,
  secret: string,
  nowMs: number = Date.now(),
): string {
  return webhookSignatureHeader(secret, rawBody, nowMs);
}
