import type { VerificationRequest } from '@warden/protocol';
import type { Client } from '../lib/api.ts';
import { humanDesktop } from '../lib/devices.ts';
import { humanDesktopForm } from '../lib/human.ts';
import { pickLocale } from '../lib/locales.ts';
import { datacenterIp } from '../lib/network.ts';
import { BrowserPage } from '../lib/page.ts';
import { personEmail } from '../lib/people.ts';
import { type BuildEnv, DAY, type Scenario, type Step } from '../lib/types.ts';

/**
 * Token replay: the attacker loads the login page once in a real browser, captures the
 * fingerprint token and a whole /collect body (evidence, behaviour, environment with its nonce),
 * then a script replays them for many accounts — the body with only the account swapped to
 * /collect, and the token to the shop's login, which the backend verifies — for half an hour.
 */
function attacker(env: BuildEnv): Step[] {
  const { rng } = env;
  const locale = pickLocale(rng);
  const device = humanDesktop(rng, locale);
  const at0 = env.t0 + rng.uniform(0, env.days * DAY - DAY);
  const page = new BrowserPage(device, datacenterIp(rng), at0, rng);
  const t = humanDesktopForm(page, rng, env.traces.human, { typing: [22, 12] });
  let captured: VerificationRequest | undefined;
  const seedEmail = personEmail(rng);
  const steps: Step[] = [
    page.register(t),
    // The capture itself is the attacker's own browser session: sent, but not scored as a replay.
    (() => {
      const step = page.collect(
        t,
        { event_type: 'login', account_id: `tr_${seedEmail}`, email: seedEmail },
        (body) => {
          captured = body;
          return body;
        },
      );
      return {
        at: step.at,
        run: async (api) => {
          await step.run(api);
          return undefined;
        },
      } satisfies Step;
    })(),
  ];
  const replays = rng.int(50, 80);
  const client: Client = { ip: datacenterIp(rng), userAgent: device.userAgent };
  for (let i = 0; i < replays; i++) {
    const at = at0 + t + 5_000 + (i / replays) * 30 * 60_000 + rng.uniform(0, 5_000);
    const email = personEmail(rng);
    const ip = rng.chance(0.5) ? client.ip : datacenterIp(rng);
    const context = { event_type: 'login' as const, account_id: `tr_${email}`, email };
    steps.push({
      at,
      run: async (api) => {
        if (!captured) return undefined;
        const { idempotency_key: _drop, ...body } = captured;
        return api.collect(
          { ip, userAgent: device.userAgent },
          { ...body, context: { ...body.context, ...context } },
        );
      },
    });
    steps.push({
      at: at + rng.uniform(100, 400),
      run: (api) =>
        api.verify({
          context: {
            ...context,
            ip_address: ip,
            user_agent: device.userAgent,
            login_succeeded: rng.chance(0.05),
          },
          ...(page.token ? { token: page.token } : {}),
        }),
    });
  }
  return steps;
}

export const tokenReplay: Scenario = {
  family: { id: 'bot_token_replay', title: 'Token and nonce replay', label: 'bot', section: 'headline' },
  build(env) {
    return [attacker(env), attacker(env), attacker(env)].flat();
  },
};
