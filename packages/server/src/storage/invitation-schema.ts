/** Workspace invitations (migration 019), written and read only by workspace/invitations.ts. */
export interface InvitationsTable {
  id: string;
  workspace_id: string;
  /** Normalised e-mail address the invitation is for. */
  email: string;
  role: string;
  /** SHA-256 of the single-use acceptance token; the token itself is shown once, never stored. */
  token_hash: string;
  created_by: string | null;
  created_at: number;
  expires_at: number;
  /** Set once, when accepted or revoked; a pending invitation has neither. */
  accepted_at: number | null;
  accepted_by: string | null;
  revoked_at: number | null;
}

export interface InvitationTables {
  invitations: InvitationsTable;
}
