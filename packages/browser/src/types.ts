import type {
  BehaviorEvidence,
  EnvironmentEvidence,
  FingerprintEvidence,
  ScoringContext,
} from '@warden/protocol';

export type { BehaviorEvidence, EnvironmentEvidence, FingerprintEvidence };
export type WorkerEvidence = NonNullable<EnvironmentEvidence['worker']>;

export type {
  ChallengeDescriptor,
  ChallengeVerifyResult as ChallengeVerification,
  Decision,
  EventType,
  FingerprintRegistrationResult as FingerprintResult,
  Signal,
} from '@warden/protocol';

/** The `context` of a scoring call (interface 2.3); the service observes IP and user agent itself on browser routes and strips `login_succeeded`. */
export type EventContext = Omit<ScoringContext, 'ip_address' | 'user_agent' | 'login_succeeded'>;

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
