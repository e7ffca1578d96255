import { humanVisit, type VisitOptions } from './journeys.ts';
import { mobileCarrierIp, residentialIp } from './network.ts';
import { type Person, visitTime } from './people.ts';
import type { Rng } from './rng.ts';
import type { BuildEnv, Step } from './types.ts';

/**
 * Ordinary customers over the replay: 1–4 visits each at diurnal times; new customers sign up on
 * their first visit, returning ones mostly log in (5% with a password typo first, a quarter with
 * a password manager); about a third of visits check out, a few redeem a promo code.
 */
export function populationSteps(
  env: BuildEnv,
  people: readonly Person[],
  tweak?: (person: Person, rng: Rng, o: VisitOptions) => VisitOptions,
): Step[] {
  const steps: Step[] = [];
  for (const person of people) {
    const rng = env.rng.fork(person.accountId);
    const count = person.returning ? rng.int(1, 4) : rng.int(1, 3);
    const times = Array.from({ length: count }, () => visitTime(rng, person.locale, env.t0, env.days)).sort(
      (a, b) => a - b,
    );
    let signedUp = person.returning;
    for (const at of times) {
      const mobile = person.device.kind === 'mobile';
      const ip = mobile
        ? rng.chance(0.55)
          ? mobileCarrierIp(rng, person.locale.region)
          : person.homeIp
        : rng.chance(0.9)
          ? person.homeIp
          : residentialIp(rng, person.locale.region);
      const auth: VisitOptions['auth'] = !signedUp ? 'signup' : rng.chance(0.7) ? 'login' : 'none';
      let o: VisitOptions = {
        ip,
        auth,
        typo: auth === 'login' && rng.chance(0.05),
        autofill: rng.chance(mobile ? 0.3 : 0.25),
        checkout: rng.chance(0.35),
        ...(auth === 'signup' && rng.chance(0.12)
          ? { promo: 'WELCOME10' }
          : rng.chance(0.04)
            ? { promo: 'SPRING25' }
            : {}),
      };
      if (tweak) o = tweak(person, rng, o);
      signedUp = true;
      steps.push(...humanVisit(person, at, rng, env.traces.human, o));
    }
  }
  return steps;
}
