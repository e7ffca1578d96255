import { makePerson } from '../lib/people.ts';
import { populationSteps } from '../lib/population.ts';
import { type Scenario, sized } from '../lib/types.ts';

/** Desktop customers: Chrome, Edge, Safari and Firefox on Windows, macOS and Linux. */
export const humansDesktop: Scenario = {
  family: { id: 'humans_desktop', title: 'Humans, desktop', label: 'human', section: 'headline' },
  build(env) {
    const rng = env.rng.fork('people');
    const people = Array.from({ length: sized(env, 110) }, () => makePerson(rng, 'desktop', 'hd'));
    return populationSteps(env, people);
  },
};
