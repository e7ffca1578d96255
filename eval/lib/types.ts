import type { Api, Outcome } from './api.ts';
import type { Rng } from './rng.ts';
import type { TraceLibrary } from './traces.ts';

export type Label = 'human' | 'bot';

export interface Family {
  id: string;
  title: string;
  label: Label;
  /** headline: held-out behaviour; tuning: replays of the engine's own tuning traces. */
  section: 'headline' | 'tuning';
}

/** One HTTP call at a virtual time. Scored calls return their outcome; set-up calls return undefined. */
export interface Step {
  at: number;
  run(api: Api): Promise<Outcome | undefined>;
}

export interface BuildEnv {
  rng: Rng;
  /** Virtual start of the replay (epoch ms) and its length in days. */
  t0: number;
  days: number;
  traces: TraceLibrary;
  /** Multiplies population sizes (WARDEN_EVAL_SCALE, default 1). */
  scale: number;
}

/** A population size under the run's scale (at least 1). */
export const sized = (env: BuildEnv, n: number): number => Math.max(1, Math.round(n * env.scale));

export interface Scenario {
  family: Family;
  build(env: BuildEnv): Step[];
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
