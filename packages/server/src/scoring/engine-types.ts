/**
 * The contract between the scoring routes (HTTP, validation, recording) and the engine
 * (features, signals, rules). The engine never writes decisions; the routes never compute scores.
 */
import type {
  Action,
  Classification,
  IdentitySummary,
  RiskLevel,
  ScoringContext,
  Signal,
} from '@warden/protocol';
import type { RateLimitResult } from '../state/hot-state.ts';
import type { ScoringRateLimit } from '../state/rate-limit.ts';
import type { HotStateWrite } from '../state/writes.ts';
import type { SitesTable } from '../storage/schema.ts';
import type { StoredRuleInput } from './stored-rule-input.ts';

export type {
  Action,
  Classification,
  EventType,
  IdentitySummary,
  RiskLevel,
  ScoringContext,
  Signal,
} from '@warden/protocol';

/** A validated VerificationRequest (browser routes: login_succeeded already stripped, ip/ua observed). */
export interface ScoringRequest {
  context: ScoringContext;
  token?: string;
  fingerprint?: Record<string, unknown>;
  behavior?: Record<string, unknown>;
  environment?: Record<string, unknown>;
  headers?: Record<string, string>;
  username?: string;
  idempotency_key?: string;
}

/**
 * performance.now() at the end of each stage of a single-event request, filled in as it goes
 * (metrics.ts DECISION_STAGES): the route sets `validated`, the engine `observed`, record.ts
 * `decided`, `queued` (handed to the group commit) and `committed` (durable).
 */
export interface DecisionTimeline {
  validated: number;
  observed?: number;
  decided?: number;
  queued?: number;
  committed?: number;
}

export interface ScoringInput {
  site: SitesTable;
  workspace: { id: string; plan: 'free' | 'pro' | 'enterprise'; demo: boolean };
  surface: 'browser' | 'server';
  request: ScoringRequest;
  /** The effective client IP and user agent (observed on browser routes; from context on server routes). */
  ip: string;
  userAgent: string;
  /** Decision id chosen by the caller before scoring (the recorded request_id). */
  decisionId: string;
  now: number;
  /**
   * The request's rate limit, for an engine that `checksLimit` to check with its first step on
   * shared state (one message in a `serve --workers` worker): refused, `score` throws its 429.
   */
  limit?: ScoringRateLimit;
  /** Where the request's stages are timed, when it is (the single-event routes). */
  timeline?: DecisionTimeline;
}

export interface EngineResult {
  signals: Signal[];
  risk_score: number;
  risk_level: RiskLevel;
  classification: Classification;
  action: Action;
  device_id: string;
  /** Present when action is `challenge`: a proof-of-work descriptor. */
  challenge?: Record<string, unknown>;
  /** Present for Pro/Enterprise/demo workspaces. */
  identity?: IdentitySummary;
  ruleset_version: string;
  /** Everything computed for this event, recorded for replay and backtests. */
  features: Record<string, unknown>;
  /** Normalised evidence summary recorded with the decision. */
  evidence: Record<string, unknown>;
  /** What the custom rules saw (with `features` and `signals`), recorded for exact backtests. */
  rule_input?: StoredRuleInput;
  /** The answer of `ScoringInput.limit` (it let the event through; not recorded). */
  admitted?: RateLimitResult;
}

export interface ScoringEngine {
  score(input: ScoringInput): Promise<EngineResult>;
  /** `score` checks `ScoringInput.limit` (the routes then leave the rate limit to it). */
  readonly checksLimit?: boolean;
  /**
   * The hot-state writes to apply once the decision is durably recorded (risky devices, recent
   * risk, the browser session), as data: a `serve --workers` worker hands them to the primary with
   * the commit, where hot state is.
   */
  outcome?(input: ScoringInput, result: EngineResult): HotStateWrite[];
  /**
   * Apply `outcome` now, to the hot state `score` read (after the decision is durably recorded, in
   * one process). Must not throw.
   */
  afterRecord?(input: ScoringInput, result: EngineResult): Promise<void>;
  /** Start-up work that would otherwise delay the first decisions (awaited by readiness). */
  prepare?(): Promise<void>;
}
