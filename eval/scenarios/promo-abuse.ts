import { pickBotTyping } from '../lib/bot-input.ts';
import { botPage } from '../lib/bot-visit.ts';
import { humanDesktop } from '../lib/devices.ts';
import { humanDesktopForm } from '../lib/human.ts';
import { pickLocale } from '../lib/locales.ts';
import { residentialIp } from '../lib/network.ts';
import { BrowserPage } from '../lib/page.ts';
import type { Rng } from '../lib/rng.ts';
import { type BuildEnv, DAY, type Scenario, type Step } from '../lib/types.ts';

/**
 * Promo abuse: one person farms a new-customer code with many accounts on one mailbox — Gmail
 * plus-addressing and dot variants (jane.doe+7@, j.anedoe@, janedoe+x@googlemail.com) — from one
 * device. Half do it by hand (human mouse traces), half with a script; half of them behind a
 * rotating residential proxy.
 */
export function mailboxVariants(rng: Rng, local: string, domain: string, n: number): string[] {
  const out = new Set<string>();
  const plain = local.replaceAll('.', '');
  while (out.size < n) {
    const kind = rng.int(0, 3);
    if (kind === 0 || domain !== 'gmail.com')
      out.add(`${local}+${rng.pick(['promo', 'shop', 'x', 'deal', ''])}${rng.int(1, 999)}@${domain}`);
    else if (kind === 1) {
      const i = rng.int(1, plain.length - 1);
      out.add(`${plain.slice(0, i)}.${plain.slice(i)}@${domain}`);
    } else if (kind === 2) out.add(`${plain}+${rng.hex(3)}@googlemail.com`);
    else out.add(`${local}@${domain}`.replace('@', `+${rng.int(1, 99)}@`));
  }
  return [...out];
}

function abuser(env: BuildEnv, index: number): Step[] {
  const { rng } = env;
  const locale = pickLocale(rng);
  const device = humanDesktop(rng, locale);
  const manual = index % 2 === 0;
  const proxy = rng.chance(0.5);
  const homeIp = residentialIp(rng, locale.region);
  const local = rng.pick(['jane.doe', 'mark.t', 'lisa.kern', 'dealhunter', 'p.nguyen']);
  const domain = index === 3 ? 'outlook.com' : 'gmail.com';
  const emails = mailboxVariants(rng, local, domain, rng.int(8, 14));
  const steps: Step[] = [];
  let at = env.t0 + rng.uniform(0, env.days * DAY - DAY);
  for (const email of emails) {
    const account = `pa_${rng.hex(8)}`;
    const ip = proxy ? residentialIp(rng, locale.region) : homeIp;
    for (const event of ['signup', 'promo_claim'] as const) {
      const ctx = {
        event_type: event,
        account_id: account,
        email,
        ...(event === 'promo_claim' ? { promo_code: 'WELCOME10' } : {}),
      };
      if (manual) {
        const page = new BrowserPage(device, ip, at, rng);
        const t = humanDesktopForm(page, rng, env.traces.human, {
          typing: event === 'signup' ? [email.length, 12, 10] : [9],
        });
        steps.push(page.register(t), page.collect(t, ctx), page.verify(t, ctx));
        at += t + rng.uniform(4_000, 20_000);
      } else {
        const page = botPage(rng, env.traces.human, {
          device,
          ip,
          at,
          plan: {
            typing: event === 'signup' ? [email.length, 12, 10] : [9],
            mouse: rng.pick(['none', 'teleport', 'linear-fixed']),
            keys: pickBotTyping(rng),
            startDelay: rng.uniform(500, 2000),
          },
          browserContext: ctx,
          serverContext: ctx,
        });
        steps.push(...page.steps);
        at = page.end + rng.uniform(1_000, 8_000);
      }
    }
    at += manual ? rng.uniform(60_000, 600_000) : rng.uniform(5_000, 60_000);
  }
  return steps;
}

export const promoAbuse: Scenario = {
  family: { id: 'bot_promo_abuse', title: 'Promo abuse, e-mail variants', label: 'bot', section: 'headline' },
  build(env) {
    return [0, 1, 2, 3, 4, 5].flatMap((i) => abuser(env, i));
  },
};
