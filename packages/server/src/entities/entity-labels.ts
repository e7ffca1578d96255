import type { EntityLabelKind } from '@warden/protocol/vocabulary';
import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import type { EntityLabelsTable } from '../storage/entity-label-schema.ts';

/**
 * Entity labels (SPEC §11): the one module that reads and writes the `entity_labels` table. An
 * analyst labels an account, device, e-mail, payment hash or identity cluster of a site as a whole;
 * every decision of that entity, recorded before or after, then counts as labelled (decision-labels
 * of entities, entities/label-resolver.ts). Functions take the executor so that a change and its
 * audit entry run in one transaction.
 */
export { ENTITY_LABEL_KINDS, type EntityLabelKind } from '@warden/protocol/vocabulary';
export type Label = 'fraud' | 'legit';

export interface EntityLabel {
  siteId: string;
  kind: EntityLabelKind;
  value: string;
  label: Label;
  labeledBy: string | null;
  labeledAt: number;
}

/** The stored form of an entity's value: e-mail addresses compare without case. */
export function entityValue(kind: EntityLabelKind, value: string): string {
  return kind === 'email' ? value.toLowerCase() : value;
}

function view(row: EntityLabelsTable): EntityLabel {
  return {
    siteId: row.site_id,
    kind: row.kind as EntityLabelKind,
    value: row.value,
    label: row.label as Label,
    labeledBy: row.labeled_by,
    labeledAt: Number(row.labeled_at),
  };
}

/** The site's entity labels, newest first (optionally of one kind or one entity). */
export async function entityLabelsOf(
  db: Kysely<DB>,
  siteId: string,
  filter: { kind?: EntityLabelKind | undefined; value?: string | undefined } = {},
): Promise<EntityLabel[]> {
  let q = db.selectFrom('entity_labels').selectAll().where('site_id', '=', siteId);
  if (filter.kind) q = q.where('kind', '=', filter.kind);
  if (filter.kind && filter.value !== undefined)
    q = q.where('value', '=', entityValue(filter.kind, filter.value));
  const rows = await q.orderBy('labeled_at', 'desc').orderBy('kind').orderBy('value').execute();
  return rows.map(view);
}

/** The entity's label, if it has one. */
export async function entityLabelOf(
  db: Kysely<DB>,
  siteId: string,
  kind: EntityLabelKind,
  value: string,
): Promise<EntityLabel | undefined> {
  return (await entityLabelsOf(db, siteId, { kind, value }))[0];
}

/** Set (or replace) an entity's label. */
export async function setEntityLabel(db: Kysely<DB>, label: EntityLabel): Promise<EntityLabel> {
  const row: EntityLabelsTable = {
    site_id: label.siteId,
    kind: label.kind,
    value: entityValue(label.kind, label.value),
    label: label.label,
    labeled_by: label.labeledBy,
    labeled_at: label.labeledAt,
  };
  await db
    .insertInto('entity_labels')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['site_id', 'kind', 'value']).doUpdateSet({
        label: row.label,
        labeled_by: row.labeled_by,
        labeled_at: row.labeled_at,
      }),
    )
    .execute();
  return view(row);
}

/** Remove an entity's label (undo); true when there was one. */
export async function removeEntityLabel(
  db: Kysely<DB>,
  siteId: string,
  kind: EntityLabelKind,
  value: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('entity_labels')
    .where('site_id', '=', siteId)
    .where('kind', '=', kind)
    .where('value', '=', entityValue(kind, value))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
