import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import type { HotState } from '../state/hot-state.ts';
import { sha256Hex } from '../workspace/tokens.ts';

const LOGIN_WINDOW_MS = 60_000;

/**
 * Brute-force throttle (SPEC §6, §10), per account, then per client address. The account limit is
 * asked first, and the address limit only for attempts it let through: so the address budget
 * counts exactly the attempts that reach the password check (an attempt refused by the account
 * limit uses up none of it), and neither limit counts what it refuses itself. The account key is
 * hashed so the hot-state store (Redis in scale mode) holds no e-mail addresses.
 */
/** The limits and the hot state the throttle counts in. */
export interface LoginThrottleDeps {
  readonly config: {
    readonly rateLimits: Pick<Config['rateLimits'], 'loginPerMinuteAccount' | 'loginPerMinuteIp'>;
  };
  readonly hotState: Pick<HotState, 'rateLimit'>;
}

export async function throttleLogin(ctx: LoginThrottleDeps, email: string, ip: string): Promise<void> {
  const limits = ctx.config.rateLimits;
  const accountKey = `login:account:${sha256Hex(email)}`;
  const byAccount = await ctx.hotState.rateLimit(accountKey, limits.loginPerMinuteAccount, LOGIN_WINDOW_MS);
  const refusal = byAccount.allowed
    ? await ctx.hotState.rateLimit(`login:ip:${ip}`, limits.loginPerMinuteIp, LOGIN_WINDOW_MS)
    : byAccount;
  if (refusal.allowed) return;
  const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
  throw new ApiError('rate_limited', `Too many sign-in attempts; try again in ${seconds} s.`, undefined, {
    'retry-after': String(seconds),
  });
}
