import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` + 32 random bytes, base64url. The whole string (UTF-8) is the HMAC key. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Hex HMAC-SHA256 over `<t>.<raw body>` keyed by the secret as UTF-8 text (interface §5 rule 7). */
export function computeSignature(secret: string, timestampS: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestampS}.`).update(rawBody).digest('hex');
}

/** The `Service-Signature` value, `t=<unix seconds>,v1=<hex>`, made fresh for each attempt. */
export function signatureHeader(
  secret: string,
  rawBody: string | Buffer,
  nowMs: number = Date.now(),
): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${computeSignature(secret, t, rawBody)}`;
}
