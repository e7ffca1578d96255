import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChallengeDeps } from '../../challenge/index.ts';
import type { FingerprintDeps } from '../../fingerprint/register.ts';
import type { ExpirySweeper } from '../../housekeeping/expiry-sweeper.ts';
import type { ServiceMetrics } from '../../metrics.ts';
import { enforceScoringRateLimit, type RateLimitDeps } from '../../pipeline/rate-limit.ts';
import type { RecordDeps } from '../../pipeline/record.ts';
import type { ScoringEngine } from '../../scoring/engine-types.ts';
import type { SitesTable } from '../../storage/schema.ts';
import {
  browserErrorCors,
  type SiteLookup,
  type Surface,
  scoringSiteOf,
  siteAuthHook,
} from '../site-auth.ts';

/** Shared pieces of the scoring routes: prefix, injected services, hooks. */
export const ANTIBOT_PREFIX = '/api/antibot';

/**
 * What the scoring routes use: recording a decision (pipeline/record.ts), the rate limits,
 * challenges and fingerprints, the sites by key, the decision metrics, the sweeper (started here
 * unless a `serve --workers` worker, whose primary sweeps).
 */
export type ScoringDeps = RecordDeps &
  RateLimitDeps &
  ChallengeDeps &
  FingerprintDeps & {
    readonly services: {
      readonly sites: SiteLookup;
      readonly metrics: Pick<ServiceMetrics, 'decisionTimeline'>;
      readonly sweeper: Pick<ExpirySweeper, 'start' | 'stop'>;
    };
  };

export interface FingerprintRegistration {
  token: string;
  device_id: string;
  expires_at: string;
}

export interface ChallengeVerification {
  valid: boolean;
  reason?: string;
  challenge_id: string;
  verified_at?: string;
}

/** What the routes call; production wiring in scoring-area.ts, fakes or the real thing in tests. */
export interface ScoringServices {
  engine: ScoringEngine;
  registerFingerprint(
    ctx: ScoringDeps,
    site: SitesTable,
    body: { fingerprint: Record<string, unknown>; behavior?: Record<string, unknown> },
  ): Promise<FingerprintRegistration>;
  /** Throws ApiError validation_failed for a bad value. */
  parseDifficulty(value: unknown): number | undefined;
  issueChallenge(
    ctx: ScoringDeps,
    site: SitesTable,
    options: { difficulty?: number; ip: string; deviceId?: string },
  ): Promise<Record<string, unknown>>;
  verifyChallenge(
    ctx: ScoringDeps,
    site: SitesTable,
    body: { challenge_id: string; nonce: string | number } | { altcha: string },
  ): Promise<ChallengeVerification>;
}

type RequestCheck = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Site auth in preValidation (before the schema); in preHandler the checks beyond the schema
 * (still `validation_failed`), then the rate limit last (or, `rateLimit: false`, first in the handler).
 */
export function surfaceHooks(
  ctx: ScoringDeps,
  surface: Surface,
  extraChecks: RequestCheck[] = [],
  options: { rateLimit?: boolean } = {},
) {
  const rateLimit: RequestCheck = async (request, reply) => {
    reply.headers(await enforceScoringRateLimit(ctx, surface, scoringSiteOf(request).site.id, request.ip));
  };
  return {
    preValidation: siteAuthHook(ctx.services.sites, surface),
    // `rateLimit: false`: the handler passes the limit to scoring (ScoreEventInput.limit).
    preHandler: options.rateLimit === false ? extraChecks : [...extraChecks, rateLimit],
    ...(surface === 'browser' ? { onSend: browserErrorCors(ctx.services.sites) } : {}),
  };
}

export function securityOf(surface: Surface) {
  return surface === 'browser' ? [{ siteKey: [] }] : [{ siteKey: [], secretKey: [] }];
}

export function userAgentOf(request: FastifyRequest): string {
  return request.headers['user-agent'] ?? '';
}

export const BROWSER_PATHS = ['/fingerprint', '/collect', '/events/batch', '/challenge', '/challenge/verify'];
