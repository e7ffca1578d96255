/**
 * Request and response types of the Warden scoring API (interface §2, SPEC §2–§5), taken from the
 * schemas the server validates with (@warden/protocol), so the SDK can never drift from them.
 */
export type {
  BatchItemResult,
  BatchResult,
  ChallengeDescriptor,
  ChallengeVerifyResult as ChallengeVerification,
  Decision,
  EventType,
  FingerprintRegistrationResult as FingerprintRegistration,
  ItemError as ApiErrorBody,
  ScoringContext as VerificationContext,
  Signal,
  VerificationRequest,
} from '@warden/protocol';
