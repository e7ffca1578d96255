import { createHmac } from 'node:crypto';

// The wire format of a webhook's `Service-Signature` header (interface §5 rule 7), written once:
// the server signs with it and the Node SDK verifies with it. It needs node:crypto, so it is the
// subpath export `@warden/protocol/webhook-signature`, kept out of the browser-safe main entry.

/** A header longer than this is not a signature header (a forged one must not cost much to reject). */
export const MAX_SIGNATURE_HEADER_LENGTH = 4096;

/** Hex HMAC-SHA256 over `<t>.<raw body>`, keyed by the secret as UTF-8 text. */
export function webhookSignatureHex(
  secret: string,
  timestamp: number | string,
  rawBody: Uint8Array | string,
): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestamp}.`)
    .update(rawBody)
    .digest('hex');
}

/** The header value `t=<unix seconds>,v1=<hex>` for a delivery signed at `nowMs`. */
export function webhookSignatureHeader(secret: string, rawBody: Uint8Array | string, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${webhookSignatureHex(secret, t, rawBody)}`;
}

export interface ParsedSignatureHeader {
  /** The `t` value as sent (1–12 digits): the signed string starts with exactly this text. */
  timestamp: string;
  /** Every well-formed `v1` entry, lower-cased (several while a secret rotates). */
  signatures: string[];
}

/**
 * Reads `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`. Unknown keys and `v1` entries that are not 64 hex
 * digits are skipped; null when no valid `t` or no `v1` is left, or the header is empty or too long.
 */
export function parseWebhookSignatureHeader(header: string | undefined | null): ParsedSignatureHeader | null {
  if (typeof header !== 'string' || header.length === 0 || header.length > MAX_SIGNATURE_HEADER_LENGTH) {
    return null;
  }
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') timestamp = value;
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) return null;
  return { timestamp, signatures };
}
