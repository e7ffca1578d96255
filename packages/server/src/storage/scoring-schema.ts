/** Tables of the scoring API (migration 002). */
export interface DecisionsTable {
  id: string;
  site_id: string;
  workspace_id: string;
  event_type: string;
  account_id: string;
  email: string | null;
  ip_address: string;
  user_agent: string;
  device_id: string;
  payment_hash: string | null;
  promo_code: string | null;
  order_amount: number | null;
  risk_score: number;
  risk_level: string;
  classification: string;
  action: string;
  /** JSON array of {rule, score, description}. */
  signals: string;
  /** JSON object of the features computed for this event (packed rows: the keys SQL reads only). */
  features: string;
  /** JSON object of the normalised evidence (fingerprint/environment/behaviour summary). */
  evidence: string;
  /** JSON of the Decision `data` exactly as answered. */
  response: string;
  ruleset_version: string;
  decision_ms: number;
  label: string | null;
  labeled_at: number | null;
  created_at: number;
  /** The identity cluster the decision was scored in (migration 008); null without the plan. */
  cluster_id?: string | null | undefined;
  /**
   * JSON of the rule input the custom rules saw (scoring/rule-input.ts, versioned; migration 013);
   * null for decisions recorded before it, which backtests reconstruct.
   */
  rule_input?: string | null | undefined;
  /**
   * On a backend `/verify` decision: the browser decision of its token it verified (migration
   * 014), so a protected submit is counted once; null otherwise.
   */
  browser_decision_id?: string | null | undefined;
  /**
   * Migration 022 (decisions/packed-row.ts): the rest of the features, the rule input and the
   * answer's identity/challenge, deflated; null on rows recorded before it. On a packed row
   * `features` holds only the keys SQL reads, `evidence` and `response` are empty and `rule_input`
   * is null: read its JSON parts with `unpackDecision`.
   */
  packed?: Uint8Array | null | undefined;
  /** Migration 022: the normalised evidence, deflated; null without any or once the retention removed it. */
  packed_evidence?: Uint8Array | null | undefined;
}

export interface IdempotencyKeysTable {
  site_id: string;
  route: string;
  key: string;
  body_hash: string;
  /**
   * The decision id reserved by the request that owns the key. The key is complete when that
   * decision exists (it is inserted in the recording transaction), in flight until then.
   */
  decision_id: string;
  created_at: number;
}

/** A proof-of-work challenge used once (migration 010), kept until it expires. */
export interface UsedChallengesTable {
  site_id: string;
  /** The challenge's salt: unique per issued challenge. */
  salt: string;
  expires_at: number;
}

export interface ScoringTables {
  decisions: DecisionsTable;
  idempotency_keys: IdempotencyKeysTable;
  used_challenges: UsedChallengesTable;
}
