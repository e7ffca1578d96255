import type { Config } from '../config.ts';
import type { HotState } from '../state/hot-state.ts';
import { admit, RATE_WINDOW_MS, rateLimitKey, type ScoringRateLimit } from '../state/rate-limit.ts';

/**
 * Scoring rate limits of a request (SPEC §8, §10): the quota the configuration gives its surface,
 * counted in the shared hot state (state/rate-limit.ts has the key, the headers and the 429).
 */
export interface RateLimitDeps {
  config: Pick<Config, 'rateLimits'>;
  hotState: Pick<HotState, 'rateLimit'>;
}

export function scoringRateLimit(
  ctx: Pick<RateLimitDeps, 'config'>,
  surface: 'browser' | 'server',
  siteId: string,
  ip: string,
): ScoringRateLimit {
  const limit =
    surface === 'browser' ? ctx.config.rateLimits.browserPerSecond : ctx.config.rateLimits.serverPerSecond;
  return { surface, key: rateLimitKey(surface, siteId, ip), limit, windowMs: RATE_WINDOW_MS };
}

/** Counts the request; answers its quota headers, or throws 429 `rate_limited` carrying them. */
export async function enforceScoringRateLimit(
  ctx: RateLimitDeps,
  surface: 'browser' | 'server',
  siteId: string,
  ip: string,
): Promise<Record<string, string>> {
  return enforce(ctx, scoringRateLimit(ctx, surface, siteId, ip));
}

export async function enforce(
  ctx: Pick<RateLimitDeps, 'hotState'>,
  rl: ScoringRateLimit,
): Promise<Record<string, string>> {
  return admit(rl, await ctx.hotState.rateLimit(rl.key, rl.limit, rl.windowMs));
}
