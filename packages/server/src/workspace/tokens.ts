import { createHash, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export const ACCESS_TOKEN_TTL_S = 3600;

export interface Principal {
  userId: string;
  /** The login session (refresh token row) this access token belongs to; logout revokes it. */
  sessionId: string;
  /** SSO sessions are scoped to one workspace; password sessions are not (null). */
  workspaceScope: string | null;
}

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(`access:${secret}`);
}

export async function issueAccessToken(
  secret: string,
  principal: Principal,
  nowMs = Date.now(),
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const jwt = new SignJWT({
    sid: principal.sessionId,
    ...(principal.workspaceScope ? { ws: principal.workspaceScope } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(principal.userId)
    .setIssuer('warden')
    .setAudience('warden-api')
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
    .setJti(randomBytes(12).toString('base64url'));
  return jwt.sign(key(secret));
}

/** The principal of a valid access token, or null (bad signature, expired, malformed). */
export async function verifyAccessToken(
  secret: string,
  token: string,
  nowMs = Date.now(),
): Promise<Principal | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ['HS256'],
      issuer: 'warden',
      audience: 'warden-api',
      currentDate: new Date(nowMs),
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
    return {
      userId: payload.sub,
      sessionId: payload.sid,
      workspaceScope: typeof payload.ws === 'string' ? payload.ws : null,
    };
  } catch {
    return null;
  }
}

/** Opaque refresh tokens: only their SHA-256 is stored. */
export function newOpaqueToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
