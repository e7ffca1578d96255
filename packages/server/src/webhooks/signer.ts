import { randomBytes } from 'node:crypto';

// The signature itself (`t=<unix seconds>,v1=<hex>`, HMAC-SHA256 over `<t>.<raw body>`) is the
// wire format in @warden/protocol/webhook-signature, shared with the Node SDK that verifies it.

/** `whsec_` + 32 random bytes, base64url. The whole string (UTF-8) is the HMAC key. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
