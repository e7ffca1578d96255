import type { Kysely } from 'kysely';
import { type Dialect, timeType } from './types.ts';

/**
 * IdP metadata by URL: where it was imported from, when it was last read, and the last refresh's
 * error (null when it succeeded). Owned by sso/config-store.ts.
 */
export function ssoMetadataUrl(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('sso_configs').addColumn('metadata_url', 'text').execute();
      await db.schema.alterTable('sso_configs').addColumn('metadata_fetched_at', timeType(dialect)).execute();
      await db.schema.alterTable('sso_configs').addColumn('metadata_error', 'text').execute();
    },
  };
}
