/**
 * The shapes of a proof-of-work challenge and its verification (SPEC §5), apart from the code that
 * issues and checks them (index.ts, altcha.ts): the scoring engine names them without reaching the
 * challenge store.
 */
export interface ChallengeDescriptor {
  challenge_id: string;
  algorithm: 'SHA-256';
  salt: string;
  challenge: string;
  maxnumber: number;
  difficulty: number;
  expires_at: string;
}

export type ChallengeFailure = 'expired' | 'invalid_proof' | 'already_used' | 'unknown_challenge';

export interface ChallengeVerification {
  valid: boolean;
  reason?: ChallengeFailure;
  challenge_id: string;
  verified_at?: string;
}

/** A solved challenge in either form: Warden's `{challenge_id, nonce}` or the ALTCHA widget's payload. */
export type PowProofInput = { challenge_id: string; nonce: string | number } | { altcha: string };
