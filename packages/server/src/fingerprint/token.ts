import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Fingerprint tokens: `wft1.<payload>.<mac>`, payload = base64url(`site_id \n device_id \n expires_ms`),
 * mac = base64url(HMAC-SHA256(key, payload)) with a key derived from the instance secret.
 * Stateless, so every process in scale mode verifies tokens issued by any other.
 */
export const TOKEN_TTL_MS = 10 * 60 * 1000;
const PREFIX = 'wft1';

export type TokenCheck =
  | { status: 'valid'; siteId: string; deviceId: string; expiresAt: number }
  | { status: 'invalid' }
  | { status: 'expired'; siteId: string; deviceId: string; expiresAt: number }
  | { status: 'site_mismatch' };

/** The token key derived from the instance secret (derived once, in services.ts's `SigningKeys`). */
export function fingerprintTokenKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('warden:fingerprint-token:v1').digest();
}

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

/** `key`: fingerprintTokenKey(secret). */
export function signToken(key: Buffer, siteId: string, deviceId: string, expiresAt: number): string {
  const payload = Buffer.from(`${siteId}\n${deviceId}\n${expiresAt}`).toString('base64url');
  return `${PREFIX}.${payload}.${mac(key, payload).toString('base64url')}`;
}

export function verifyToken(key: Buffer, token: unknown, siteId: string, now: number): TokenCheck {
  if (typeof token !== 'string' || token.length > 1024) return { status: 'invalid' };
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX) return { status: 'invalid' };
  const payload = parts[1]!;
  const given = Buffer.from(parts[2]!, 'base64url');
  const expected = mac(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { status: 'invalid' };
  const fields = Buffer.from(payload, 'base64url').toString('utf8').split('\n');
  if (fields.length !== 3) return { status: 'invalid' };
  const [tokenSite, deviceId, exp] = fields as [string, string, string];
  const expiresAt = Number(exp);
  if (!Number.isSafeInteger(expiresAt)) return { status: 'invalid' };
  if (tokenSite !== siteId) return { status: 'site_mismatch' };
  if (now >= expiresAt) return { status: 'expired', siteId: tokenSite, deviceId, expiresAt };
  return { status: 'valid', siteId: tokenSite, deviceId, expiresAt };
}
