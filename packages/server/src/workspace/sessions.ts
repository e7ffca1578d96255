import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import { issueAccessToken, newOpaqueToken, sha256Hex } from './tokens.ts';

/**
 * How long a login session (its refresh-token row) lives. There is no refresh exchange
 * (interface §4.2 rule 2), so this only bounds how long the row is kept valid for revocation.
 */
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

export interface Session {
  sessionId: string;
  accessToken: string;
  refreshToken: string;
}

/** Open a login session: a refresh-token row (stored hashed) and an access token bound to it. */
export async function startSession(
  db: Kysely<DB>,
  secret: string,
  userId: string,
  workspaceScope: string | null,
  now: number,
): Promise<Session> {
  const sessionId = randomUUID();
  const refreshToken = newOpaqueToken('wrt');
  await db
    .insertInto('refresh_tokens')
    .values({
      id: sessionId,
      user_id: userId,
      token_hash: sha256Hex(refreshToken),
      workspace_scope: workspaceScope,
      created_at: now,
      expires_at: now + SESSION_TTL_MS,
      revoked_at: null,
    })
    .execute();
  const accessToken = await issueAccessToken(secret, { userId, sessionId, workspaceScope }, now);
  return { sessionId, accessToken, refreshToken };
}

/** Revoke a session: every access token issued for it is refused from now on (http/auth.ts). */
export async function revokeSession(db: Kysely<DB>, sessionId: string, now: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Whether the login session `sessionId` exists and is not revoked (every management request asks). */
export async function sessionIsActive(db: Kysely<DB>, sessionId: string): Promise<boolean> {
  const session = await db
    .selectFrom('refresh_tokens')
    .select(['revoked_at'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return session !== undefined && session.revoked_at === null;
}
