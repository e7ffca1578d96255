/** A pointer position and the milliseconds since the movement began. */
export interface TimedPoint {
  x: number;
  y: number;
  t: number;
}

/** A pointer position (the benchmark's own, from the xdotool scripts' support). */
export type { Point } from '../../../e2e/support/human-input.ts';

/**
 * Runs `draw` with Math.random replaced by the script's seeded generator: the npm libraries draw
 * with Math.random, and a benchmark run must be repeatable. `draw` must be synchronous.
 */
export function withSeededMath<T>(random: () => number, draw: () => T): T {
  const unseeded = Math.random;
  Math.random = random;
  try {
    return draw();
  } finally {
    Math.random = unseeded;
  }
}
