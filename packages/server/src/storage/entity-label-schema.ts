/** Entity labels (migration 025), written and read only by entities/entity-labels.ts. */
export interface EntityLabelsTable {
  site_id: string;
  /** `account`, `device`, `email`, `payment` or `cluster`. */
  kind: string;
  /** The account id, device id, lower-cased e-mail, payment hash or cluster id. */
  value: string;
  label: string;
  /** The user who set it (null when the user is gone). */
  labeled_by: string | null;
  labeled_at: number;
}

export interface EntityLabelTables {
  entity_labels: EntityLabelsTable;
}
