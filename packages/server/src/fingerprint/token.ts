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

const keys = new Map<string, Buffer>();
function tokenKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('warden:fingerprint-token:v1').digest();
    keys.set(secret, key);
  }
  return key;
}

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', tokenKey(secret)).update(payload).digest();
}

export function signToken(secret: string, siteId: string, deviceId: string, expiresAt: number): string {
  const payload = Buffer.from(`${siteId}\n${deviceId}\n${expiresAt}`).toString('base64url');
  return `${PREFIX}.${payload}.${mac(secret, payload).toString('base64url')}`;
}

export function verifyToken(secret: string, token: unknown, siteId: string, now: number): TokenCheck {
  if (typeof token !== 'string' || token.length > 1024) return { status: 'invalid' };
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX) return { status: 'invalid' };
  const payload = parts[1]!;
  const given = Buffer.from(parts[2]!, 'base64url');
  const expected = mac(secret, payload);
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
