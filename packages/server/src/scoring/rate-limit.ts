import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';

/**
 * Scoring rate limits (SPEC §8, §10): browser routes per site per client IP, server routes per
 * site, one-second sliding logs in the shared hot state (Redis in scale mode). A batch request
 * counts once. Refusals are 429 `rate_limited` with `Retry-After` in whole seconds (at least 1).
 */
export const RATE_WINDOW_MS = 1000;

export function rateLimitKey(surface: 'browser' | 'server', siteId: string, ip: string): string {
  return surface === 'browser' ? `scoring:b:${siteId}:${ip}` : `scoring:s:${siteId}`;
}

export async function enforceScoringRateLimit(
  ctx: AppContext,
  surface: 'browser' | 'server',
  siteId: string,
  ip: string,
): Promise<void> {
  const limit =
    surface === 'browser' ? ctx.config.rateLimits.browserPerSecond : ctx.config.rateLimits.serverPerSecond;
  const result = await ctx.hotState.rateLimit(rateLimitKey(surface, siteId, ip), limit, RATE_WINDOW_MS);
  if (result.allowed) return;
  const retryAfterS = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
  throw new ApiError(
    'rate_limited',
    surface === 'browser'
      ? `More than ${limit} requests per second from this address for this site; retry in ${retryAfterS} s.`
      : `More than ${limit} requests per second for this site; retry in ${retryAfterS} s.`,
    undefined,
    { 'retry-after': String(retryAfterS) },
  );
}
