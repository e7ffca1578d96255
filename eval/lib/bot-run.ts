import type { ScoringContext } from '@warden/protocol';
import { type MouseStyle, pickBotTyping } from './bot-input.ts';
import { botPage, botPageView } from './bot-visit.ts';
import type { Device } from './devices.ts';
import { personEmail } from './people.ts';
import type { Rng } from './rng.ts';
import type { Trace } from './traces.ts';
import type { Step } from './types.ts';

/**
 * One automated browser session: land (page_view), then one form (sign-up, login, promo claim
 * or checkout) for a fresh or stolen account; the shop's backend verifies the form with the token.
 */
export function automatedSession(
  rng: Rng,
  human: readonly Trace[],
  device: Device,
  ip: string,
  at: number,
  mouse: MouseStyle,
  prefix: string,
): Step[] {
  const accountId = `${prefix}_${rng.hex(8)}`;
  const email = personEmail(rng);
  const job = rng.weighted([
    ['signup', 35],
    ['login', 30],
    ['promo_claim', 15],
    ['checkout', 20],
  ] as const);
  const view = botPageView(rng, device, ip, at, 'anonymous');
  const ctx: ScoringContext = { event_type: job, account_id: accountId, email };
  const typing =
    job === 'signup'
      ? [email.length, 12, 10]
      : job === 'login'
        ? [email.length, 12]
        : job === 'promo_claim'
          ? [8]
          : [0, 0, 0];
  const server: ScoringContext = {
    ...ctx,
    ...(job === 'login' ? { login_succeeded: rng.chance(0.15) } : {}),
    ...(job === 'promo_claim' ? { promo_code: 'WELCOME10' } : {}),
    ...(job === 'checkout'
      ? { payment_hash: `pm_${rng.hex(24)}`, order_amount: Math.round(rng.uniform(20, 400) * 100) / 100 }
      : {}),
  };
  const form = botPage(rng, human, {
    device,
    ip,
    at: view.end + rng.uniform(300, 3000),
    plan: { typing, mouse, keys: pickBotTyping(rng), startDelay: rng.uniform(150, 2500) },
    browserContext: { ...ctx, ...(job === 'promo_claim' ? { promo_code: 'WELCOME10' } : {}) },
    serverContext: server,
  });
  return [...view.steps, ...form.steps];
}
