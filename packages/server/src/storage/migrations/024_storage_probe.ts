import type { Kysely } from 'kysely';
import type { Dialect } from './types.ts';

/**
 * The scratch table of the storage probe (storage/storage-space.ts): while the database is full,
 * /readyz writes a row here and deletes it, to learn when there is room again. Empty otherwise.
 */
export function storageProbe(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('storage_probe')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('filler', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
