import { makePerson } from '../lib/people.ts';
import { populationSteps } from '../lib/population.ts';
import { type Scenario, sized } from '../lib/types.ts';

/** Phone customers: iOS Safari and Android Chrome, on home Wi-Fi or a carrier's shared (CGNAT) address. */
export const humansMobile: Scenario = {
  family: { id: 'humans_mobile', title: 'Humans, mobile', label: 'human', section: 'headline' },
  build(env) {
    const rng = env.rng.fork('people');
    const people = Array.from({ length: sized(env, 80) }, () => makePerson(rng, 'mobile', 'hm'));
    return populationSteps(env, people);
  },
};
