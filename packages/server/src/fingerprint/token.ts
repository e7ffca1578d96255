import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DeviceLinkKind } from './device-link.ts';

/**
 * Fingerprint tokens: `wft1.<payload>.<mac>`, payload = base64url of the lines `site_id`,
 * `device_id`, `expires_ms`, then the registration's binding: the evidence's own fingerprint id,
 * the SDK's visitor id, how the device was linked, its confidence and `1` when the visitor id named
 * another device (device-link.ts). mac = base64url(HMAC-SHA256(key, payload)) with a key derived
 * from the instance secret. Stateless, so every process in scale mode verifies tokens issued by
 * any other. Tokens of three lines (issued before the binding existed) still verify, as `exact`.
 */
export const TOKEN_TTL_MS = 10 * 60 * 1000;
const PREFIX = 'wft1';

/** What the registration saw: the scoring call compares its own evidence with it. */
export interface TokenBinding {
  fingerprintId: string;
  visitorId: string;
  link: DeviceLinkKind;
  confidence: number;
  visitorConflict: boolean;
}

const isLink = (s: string): s is DeviceLinkKind =>
  s === 'exact' || s === 'visitor' || s === 'fuzzy' || s === 'new';

export type TokenCheck =
  | { status: 'valid'; siteId: string; deviceId: string; expiresAt: number; binding: TokenBinding }
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
export function signToken(
  key: Buffer,
  siteId: string,
  deviceId: string,
  expiresAt: number,
  binding: TokenBinding,
): string {
  const b = binding;
  const lines = [
    siteId,
    deviceId,
    expiresAt,
    b.fingerprintId,
    b.visitorId,
    b.link,
    b.confidence,
    b.visitorConflict ? 1 : 0,
  ];
  const payload = Buffer.from(lines.join('\n')).toString('base64url');
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
  if (fields.length !== 3 && fields.length !== 8) return { status: 'invalid' };
  const [
    tokenSite,
    deviceId,
    exp,
    fingerprintId = deviceId,
    visitorId = '',
    link = 'exact',
    conf = '1',
    conflict,
  ] = fields as [string, string, string, ...string[]];
  const expiresAt = Number(exp);
  const confidence = Number(conf);
  if (!Number.isSafeInteger(expiresAt) || !isLink(link) || !(confidence >= 0 && confidence <= 1))
    return { status: 'invalid' };
  if (tokenSite !== siteId) return { status: 'site_mismatch' };
  if (now >= expiresAt) return { status: 'expired', siteId: tokenSite, deviceId, expiresAt };
  const binding = {
    fingerprintId,
    visitorId,
    link,
    confidence,
    visitorConflict: conflict === '1',
  };
  return { status: 'valid', siteId: tokenSite, deviceId, expiresAt, binding };
}
