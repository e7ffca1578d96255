import { describe, expect, it } from 'vitest';
import { aimedReachSpans } from './aimed-reaches.ts';
import { aimingMetrics } from './aiming-metrics.ts';
import { readMousePath } from './mouse-path.ts';
import { stepsOf, walkFrom } from './path-walk.fixtures.ts';
import { PRIMARY_MIN_CHORD, primaryEnd } from './reach-primary.ts';
import { reachShapeMetrics } from './reach-shape.ts';

/** Samples [t, x, y] from a rest at (100, 300) (1 s before): steps [dt, dx, dy]. */
const walk = (steps: number[][]) =>
  walkFrom(
    [
      [0, 100, 300],
      [1000, 101, 300],
    ],
    steps,
  );
const on = stepsOf;

/**
 * ghost-cursor's far reach on a busy machine (a loaded fixture page, simplified): even 40 px steps
 * every ~65 ms to 40 px past the target, then a crawl back at 1–2 px a step for ~0.7 s.
 */
const overshoot = walk([...on(15, 65, 40), ...on(24, 30, -1, 0), ...on(8, 20, -2, 0)]);
/** A hand: a bell of steps into the same overshoot, braking to nought where it turns. */
const hand = walk([
  ...[4, 10, 22, 38, 52, 60, 62, 60, 52, 40, 30, 20, 12, 6, 2].map((dx) => [16, dx, 0]),
  ...on(16, 16, -1, 0),
  ...on(4, 16, -2, 0),
]);
const pressAt = (page: number[][]) => {
  const [t, x, y] = page[page.length - 1]!;
  return [[t! + 150, x!, y!, 0]];
};

describe('primaryEnd', () => {
  it('finds where a reach turned back once it had covered most of its way', () => {
    const path = readMousePath(overshoot);
    expect(primaryEnd(path, 1, path.n - 1)).toBe(16);
  });

  it('is the last sample when the reach never turned back', () => {
    const path = readMousePath(walk(on(20, 16, 20, 3)));
    expect(primaryEnd(path, 1, path.n - 1)).toBe(path.n - 1);
  });

  it(`ignores a hook before ${PRIMARY_MIN_CHORD} of the way and a pixel's jitter`, () => {
    const hook = readMousePath(walk([...on(6, 16, 10), ...on(3, 16, -10), ...on(30, 16, 20)]));
    expect(primaryEnd(hook, 1, hook.n - 1)).toBe(hook.n - 1);
    const jitter = readMousePath(walk([...on(20, 16, 20), [16, -1, 0], [16, 1, 0], ...on(3, 16, 20)]));
    expect(primaryEnd(jitter, 1, jitter.n - 1)).toBe(jitter.n - 1);
  });
});

describe('an overshoot read up to its turn', () => {
  it("shows the library's even steps run into the turn: untailed and arrived", () => {
    const path = readMousePath(overshoot);
    expect(reachShapeMetrics(path, aimedReachSpans(path, pressAt(overshoot)))).toMatchObject({
      reaches: 1,
      untailed: 1,
    });
    expect(aimingMetrics(path, aimedReachSpans(path, pressAt(overshoot)))).toMatchObject({
      reaches: 1,
      arrived: 1,
    });
  });

  it("keeps a hand's: it brakes into the turn", () => {
    const path = readMousePath(hand);
    expect(reachShapeMetrics(path, aimedReachSpans(path, pressAt(hand)))).toMatchObject({
      reaches: 1,
      untailed: 0,
    });
    expect(aimingMetrics(path, aimedReachSpans(path, pressAt(hand)))).toMatchObject({
      reaches: 1,
      arrived: 0,
    });
  });
});
