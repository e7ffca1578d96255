/** The audit log (migration 012), written and read only by audit/log.ts. */
export interface AuditLogTable {
  id: string;
  workspace_id: string;
  site_id: string | null;
  actor_user_id: string | null;
  /** The actor's e-mail when the change was made (the account may be gone later). */
  actor_email: string | null;
  /** `rule.create`, `list.update`, `member.remove`, `site.rotate_keys`, `webhook.update`, `sso.update`, … */
  action: string;
  target_type: string;
  target_id: string;
  /** JSON of the target before the change (null on create), secrets removed. */
  before: string | null;
  /** JSON of the target after the change (null on delete), secrets removed. */
  after: string | null;
  created_at: number;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
