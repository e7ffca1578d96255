import type { BehaviorEvidence, EnvironmentEvidence, FingerprintEvidence } from '@warden/protocol';

export type { BehaviorEvidence, EnvironmentEvidence, FingerprintEvidence };
export type WorkerEvidence = NonNullable<EnvironmentEvidence['worker']>;

export type EventType = 'signup' | 'login' | 'promo_claim' | 'checkout' | 'page_view';

/** The `context` of a scoring call (interface 2.3). `login_succeeded` is stripped on browser routes. */
export interface EventContext {
  event_type: EventType;
  account_id: string;
  email?: string;
  order_amount?: number;
  payment_hash?: string;
  promo_code?: string;
  request_url?: string;
}

export interface ChallengeDescriptor {
  challenge_id: string;
  algorithm: 'SHA-256';
  salt: string;
  challenge: string;
  maxnumber: number;
  difficulty: number;
  expires_at: string;
}

export interface Signal {
  rule: string;
  score: number;
  description: string;
}

export interface Decision {
  classification: 'human' | 'suspicious' | 'bot';
  risk_score: number;
  risk_level: 'low' | 'medium' | 'high' | 'critical';
  action: 'allow' | 'review' | 'challenge' | 'block';
  request_id: string;
  device_id: string;
  signals: Signal[];
  identity?: Record<string, string | number>;
  challenge?: ChallengeDescriptor;
  decision_ms: number;
  timestamp: string;
}

export interface FingerprintResult {
  token: string;
  device_id: string;
  expires_at?: string;
}

export interface ChallengeVerification {
  valid: boolean;
  reason?: string;
  challenge_id: string;
  verified_at?: string;
}

export interface Solution {
  challenge_id: string;
  nonce: number;
  took_ms: number;
  hashes: number;
  workers: number;
  engine: 'wasm' | 'js' | 'main-thread';
}

export interface SolveProgress {
  /** Values tried so far. */
  hashes: number;
  /** Expected total work (maxnumber / 2). */
  expected: number;
  hashes_per_second: number;
}

export interface SolveOptions {
  onProgress?: (progress: SolveProgress) => void;
  signal?: AbortSignal;
  /** Worker count; default from hardwareConcurrency and deviceMemory. */
  workers?: number;
}
