/** Tables of single sign-on (migrations 007, 018 and 020). */

/** One SAML identity provider per workspace. */
export interface SsoConfigsTable {
  workspace_id: string;
  /** 0/1 */
  enabled: number;
  /** The IdP's entity id: the expected `Issuer` of its responses. */
  idp_entity_id: string;
  /** The IdP's single sign-on URL (HTTP-Redirect binding). */
  sso_url: string;
  /** The IdP's signing certificate, PEM. */
  idp_certificate: string;
  default_role: 'owner' | 'analyst' | 'viewer';
  /** 0/1: password login refused to non-owner members. */
  sso_required: number;
  /** JSON `{ "email": [...], "name": [...] }` (migration 018); null: the default attribute names. */
  attribute_mapping: string | null;
  /** Where the IdP metadata is read from (migration 020); null: settings pasted. */
  metadata_url: string | null;
  /** When it was last read successfully, and the last refresh's error. */
  metadata_fetched_at: number | null;
  metadata_error: string | null;
  created_at: number;
  updated_at: number;
}

/** Assertion ids already accepted (single use), kept until the assertion would have expired anyway. */
export interface SsoUsedAssertionsTable {
  workspace_id: string;
  assertion_id: string;
  used_at: number;
  expires_at: number;
}

export interface SsoTables {
  sso_configs: SsoConfigsTable;
  sso_used_assertions: SsoUsedAssertionsTable;
}
