/** Tables of custom rules and lists (migration 006). */
export interface RulesTable {
  id: string;
  site_id: string;
  name: string;
  description: string;
  enabled: number;
  mode: 'live' | 'shadow';
  /** JSON array of event types; empty = all. */
  event_types: string;
  expression: string;
  score: number | null;
  action: 'allow' | 'review' | 'challenge' | 'block' | null;
  priority: number;
  created_at: number;
  updated_at: number;
}

export type ListKind = 'ip' | 'email' | 'email_domain' | 'device_id' | 'account_id' | 'payment_hash';

export interface ListsTable {
  id: string;
  site_id: string;
  name: string;
  kind: ListKind;
  type: 'allow' | 'block';
  /** JSON array of entries (IPs and CIDRs for kind ip). */
  entries: string;
  created_at: number;
  updated_at: number;
}

export interface RuleTables {
  rules: RulesTable;
  lists: ListsTable;
}
