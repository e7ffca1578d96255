import type { Kysely } from 'kysely';
import { type Dialect, timeType } from './types.ts';

/**
 * Entity labels (SPEC §11, issue 26): an analyst's `fraud`/`legit` on an account, device, e-mail,
 * payment hash or identity cluster of a site as a whole, so that its past and future decisions count
 * as labelled. One label per entity; undoing it deletes the row (the audit log keeps the history).
 * Owned by packages/server/src/entities/entity-labels.ts.
 */
export function entityLabels(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('entity_labels')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('labeled_by', 'text')
        .addColumn('labeled_at', timeType(dialect), (c) => c.notNull())
        .addPrimaryKeyConstraint('entity_labels_pk', ['site_id', 'kind', 'value'])
        .execute();
    },
  };
}
