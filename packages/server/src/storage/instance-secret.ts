import { randomBytes } from 'node:crypto';
import type { Database } from './db.ts';

/**
 * The instance signing secret (access tokens, fingerprint tokens). WARDEN_SECRET wins; otherwise
 * one is generated on first start and kept in the database, so every process shares it.
 */
export async function loadInstanceSecret(
  database: Database,
  configured: string | undefined,
): Promise<string> {
  if (configured) return configured;
  const { db } = database;
  const existing = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', 'secret')
    .executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('instance_settings')
    .values({ key: 'secret', value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', 'secret')
    .executeTakeFirstOrThrow();
  return row.value;
}
