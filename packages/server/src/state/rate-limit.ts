import { ApiError } from '../errors.ts';
import type { RateLimitResult } from './hot-state.ts';

/**
 * Scoring rate limits (SPEC §8, §10): browser routes per site per client IP, server routes per
 * site, one-second sliding logs in the shared hot state (Redis in scale mode). A batch request
 * counts once. Refusals are 429 `rate_limited` with `Retry-After` in whole seconds (at least 1).
 */
export const RATE_WINDOW_MS = 1000;

export function rateLimitKey(surface: 'browser' | 'server', siteId: string, ip: string): string {
  return surface === 'browser' ? `scoring:b:${siteId}:${ip}` : `scoring:s:${siteId}`;
}

/**
 * The quota headers of the IETF draft (draft-ietf-httpapi-ratelimit-headers, the three-field form):
 * `RateLimit-Limit` (requests per window), `RateLimit-Remaining` (left after this one) and
 * `RateLimit-Reset` (whole seconds until the quota is whole again: the window's length when
 * allowed, the `Retry-After` value when refused), plus `RateLimit-Policy` naming the window.
 */
export function rateLimitHeaders(limit: number, result: RateLimitResult): Record<string, string> {
  const resetS = result.allowed
    ? Math.ceil(RATE_WINDOW_MS / 1000)
    : Math.max(1, Math.ceil(result.retryAfterMs / 1000));
  return {
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': String(Math.max(0, result.remaining)),
    'ratelimit-reset': String(resetS),
    'ratelimit-policy': `${limit};w=${Math.ceil(RATE_WINDOW_MS / 1000)}`,
  };
}

/** One request's scoring rate limit: its key and quota, for the shared hot state to count. */
export interface ScoringRateLimit {
  surface: 'browser' | 'server';
  key: string;
  limit: number;
  windowMs: number;
}

/** The quota headers of a request the limit let through; throws 429 `rate_limited` carrying them. */
export function admit(rl: ScoringRateLimit, result: RateLimitResult): Record<string, string> {
  const { surface, limit } = rl;
  const headers = rateLimitHeaders(limit, result);
  if (result.allowed) return headers;
  const retryAfterS = Number(headers['ratelimit-reset']);
  throw new ApiError(
    'rate_limited',
    surface === 'browser'
      ? `More than ${limit} requests per second from this address for this site; retry in ${retryAfterS} s.`
      : `More than ${limit} requests per second for this site; retry in ${retryAfterS} s.`,
    undefined,
    { ...headers, 'retry-after': String(retryAfterS) },
  );
}
