/**
 * Table types. Times are Unix epoch milliseconds (bigint in PostgreSQL, read back as numbers),
 * booleans are 0/1 integers and structured values are JSON text, so that one set of queries
 * runs on both SQLite and PostgreSQL.
 */
export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: number;
  updated_at: number;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  plan: 'free' | 'pro' | 'enterprise';
  demo: number;
  created_at: number;
  updated_at: number;
}

export interface MembershipsTable {
  workspace_id: string;
  user_id: string;
  role: 'owner' | 'analyst' | 'viewer';
  created_at: number;
}

export interface SitesTable {
  id: string;
  workspace_id: string;
  name: string;
  site_key: string;
  /** SHA-256 hex of the secret key; the secret itself is never stored. */
  secret_key_hash: string;
  /** JSON array of origins. */
  allowed_origins: string;
  /** JSON object of per-site settings (pow floor, …). */
  settings: string;
  keys_rotated_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  /** SHA-256 hex of the opaque token. */
  token_hash: string;
  /** Workspace scope for SSO sessions; null for password sessions. */
  workspace_scope: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** Instance-wide values shared by every process (e.g. the generated signing secret). */
export interface InstanceSettingsTable {
  key: string;
  value: string;
}

/** The storage probe's scratch row (migration 024, storage/storage-space.ts): empty but while probing. */
export interface StorageProbeTable {
  id: number;
  filler: string;
}

export interface CoreTables {
  instance_settings: InstanceSettingsTable;
  storage_probe: StorageProbeTable;
  users: UsersTable;
  workspaces: WorkspacesTable;
  memberships: MembershipsTable;
  sites: SitesTable;
  refresh_tokens: RefreshTokensTable;
}
