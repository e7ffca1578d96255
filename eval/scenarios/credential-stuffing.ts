import { subnet24 } from '../lib/network.ts';
import { personEmail } from '../lib/people.ts';
import { type BuildEnv, DAY, HOUR, MINUTE, type Scenario, type Step, sized } from '../lib/types.ts';
import { SPOOFED_UAS } from './scripted.ts';

/**
 * Credential stuffing with a combo list against the shop's login API (OpenBullet-style: no
 * JavaScript, browser user agents rotated), from rented datacenter /24 blocks. Each attempt is a
 * different account; about 1.5% of the pairs work. The shop's backend verifies every attempt
 * with the outcome of its password check.
 */
interface Campaign {
  attempts: number;
  durationMs: number;
  blocks: number;
  hostsPerBlock: number;
}

function campaign(env: BuildEnv, c: Campaign): Step[] {
  const { rng } = env;
  const blocks = Array.from({ length: c.blocks }, () =>
    subnet24(rng, rng.pick(['45.134', '193.56', '185.220', '91.92', '194.26'])),
  );
  const start = env.t0 + rng.uniform(DAY, env.days * DAY - 2 * DAY);
  const steps: Step[] = [];
  for (let i = 0; i < c.attempts; i++) {
    const at = start + (i / c.attempts) * c.durationMs + rng.uniform(0, 800);
    const ip = rng.pick(blocks).pick(c.hostsPerBlock);
    const email = personEmail(rng);
    const ua = rng.pick(SPOOFED_UAS);
    const ok = rng.chance(0.015);
    steps.push({
      at,
      run: (api) =>
        api.verify({
          context: {
            event_type: 'login',
            account_id: `cs_${email}`,
            email,
            ip_address: ip,
            user_agent: ua,
            login_succeeded: ok,
          },
        }),
    });
  }
  return steps;
}

export const credentialStuffing: Scenario = {
  family: { id: 'bot_credential_stuffing', title: 'Credential stuffing', label: 'bot', section: 'headline' },
  build(env) {
    return [
      // A burst from a small pool in one /24.
      ...campaign(env, { attempts: sized(env, 200), durationMs: 40 * MINUTE, blocks: 1, hostsPerBlock: 12 }),
      // The whole /24 rotated: each address tries only a handful of accounts per hour.
      ...campaign(env, { attempts: sized(env, 160), durationMs: 3 * HOUR, blocks: 1, hostsPerBlock: 120 }),
      // Low and slow across three blocks over a day.
      ...campaign(env, { attempts: sized(env, 120), durationMs: 20 * HOUR, blocks: 3, hostsPerBlock: 80 }),
    ];
  },
};
