import type { MouseStyle } from '../lib/bot-input.ts';
import { botPage } from '../lib/bot-visit.ts';
import { type Device, hash28, humanDesktop } from '../lib/devices.ts';
import { pickLocale } from '../lib/locales.ts';
import { residentialIp } from '../lib/network.ts';
import { personEmail } from '../lib/people.ts';
import type { Rng } from '../lib/rng.ts';
import { type BuildEnv, DAY, type Scenario, type Step } from '../lib/types.ts';

/**
 * Card testing: stolen card numbers tried with small amounts in quick runs, through the real
 * checkout (browser with the SDK, automated filling) and verified by the shop's backend with the
 * payment hash. Three set-ups: one account and device burning many cards; a device rotating a
 * few accounts; an anti-detect browser with a fresh fingerprint (canvas noise) every attempt.
 */
function noisy(rng: Rng, base: Device): Device {
  return {
    ...base,
    fingerprint: {
      ...base.fingerprint,
      canvas_hash: hash28(`noise|${rng.hex(12)}`),
      audio_hash: hash28(`noise|${rng.hex(12)}`),
    },
  };
}

function run(env: BuildEnv, setup: 'one-account' | 'few-accounts' | 'rotating-fp', cards: number): Step[] {
  const { rng } = env;
  const locale = pickLocale(rng);
  const device = humanDesktop(rng, locale);
  const mouse = rng.pick<MouseStyle>(['none', 'teleport', 'linear-fixed', 'bezier-random']);
  const steps: Step[] = [];
  let at = env.t0 + rng.uniform(0, env.days * DAY - DAY);
  let account = `ct_${rng.hex(8)}`;
  let email = personEmail(rng);
  const ip = residentialIp(rng, locale.region);
  for (let i = 0; i < cards; i++) {
    if ((setup === 'few-accounts' && i % 5 === 0) || (setup === 'rotating-fp' && i % 3 === 0)) {
      account = `ct_${rng.hex(8)}`;
      email = personEmail(rng);
    }
    const amount = Math.round(rng.uniform(0.5, 5) * 100) / 100;
    const ctx = { event_type: 'checkout' as const, account_id: account, email, order_amount: amount };
    const page = botPage(rng, env.traces.human, {
      device: setup === 'rotating-fp' ? noisy(rng, device) : device,
      ip: setup === 'rotating-fp' ? residentialIp(rng, locale.region) : ip,
      at,
      plan: { typing: [0, 0, 0], mouse, keys: 'fill', startDelay: rng.uniform(600, 2500) },
      browserContext: ctx,
      serverContext: { ...ctx, payment_hash: `pm_${rng.hex(24)}` },
    });
    steps.push(...page.steps);
    at = page.end + rng.uniform(5_000, 45_000);
  }
  return steps;
}

export const cardTesting: Scenario = {
  family: { id: 'bot_card_testing', title: 'Card testing', label: 'bot', section: 'headline' },
  build(env) {
    return [
      ...run(env, 'one-account', 30),
      ...run(env, 'one-account', 18),
      ...run(env, 'few-accounts', 30),
      ...run(env, 'rotating-fp', 36),
    ];
  },
};
