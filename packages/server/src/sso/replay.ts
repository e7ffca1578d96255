import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';

/**
 * Accept an assertion id once per workspace. The row is written in the database (a primary key
 * decides), so two processes cannot both accept it. False: seen before.
 */
export async function claimAssertion(
  db: Kysely<DB>,
  workspaceId: string,
  assertionId: string,
  expiresAt: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .insertInto('sso_used_assertions')
    .values({ workspace_id: workspaceId, assertion_id: assertionId, used_at: now, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['workspace_id', 'assertion_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Forget ids of assertions that have expired anyway (their time window refuses them). */
export async function purgeUsedAssertions(db: Kysely<DB>, now: number): Promise<number> {
  const result = await db.deleteFrom('sso_used_assertions').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
