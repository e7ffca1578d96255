import type { Harness } from './server.ts';
import { FamilyStats } from './stats.ts';
import type { BuildEnv, Scenario, Step } from './types.ts';

interface Queued {
  step: Step;
  stats: FamilyStats;
  order: number;
}

/**
 * Builds every scenario's steps, merges them on one virtual timeline and replays them in time
 * order, one request at a time (deterministic: the only randomness is the seeded PRNG).
 */
export async function replay(
  harness: Harness,
  scenarios: readonly Scenario[],
  env: BuildEnv,
): Promise<{ stats: FamilyStats[]; requests: number; simulatedMs: number }> {
  const queue: Queued[] = [];
  const stats: FamilyStats[] = [];
  let order = 0;
  for (const scenario of scenarios) {
    const s = new FamilyStats(scenario.family);
    stats.push(s);
    const steps = scenario.build({ ...env, rng: env.rng.fork(scenario.family.id) });
    for (const step of steps) queue.push({ step, stats: s, order: order++ });
  }
  queue.sort((a, b) => a.step.at - b.step.at || a.order - b.order);
  const first = queue[0]?.step.at ?? env.t0;
  for (const { step, stats: s } of queue) {
    harness.clock.set(step.at);
    try {
      const outcome = await step.run(harness.api);
      if (outcome) s.add(outcome);
    } catch (err) {
      s.addError(`exception ${err instanceof Error ? err.message.slice(0, 60) : 'unknown'}`);
    }
  }
  const last = queue[queue.length - 1]?.step.at ?? first;
  return { stats, requests: harness.api.requests, simulatedMs: last - first };
}
