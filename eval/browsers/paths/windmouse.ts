import { createRequire } from 'node:module';
import { type Point, type TimedPoint, withSeededMath } from './timed-path.ts';

/** The package's settings (windmouse/lib/Types.d.ts). */
interface MouseSettings {
  startX: number;
  startY: number;
  endX: number;
  endY: number;
  gravity: number;
  wind: number;
  minWait: number;
  maxWait: number;
  maxStep: number;
  targetArea: number;
}

/** The package's CommonJS export is the class itself. */
const WindMouse = createRequire(import.meta.url)('windmouse') as new (
  mouseSpeed: number,
) => { GeneratePoints(settings: MouseSettings): Promise<number[][]> };

/**
 * The `windmouse` npm package (a port of BenLand100's WindMouse): the pointer is pulled to the
 * target by "gravity" and pushed sideways by a random "wind"; each step waits in proportion to its
 * length. Settings are the original WindMouse defaults at speed 1 (gravity 9, wind 3, steps of at
 * most 10 px, 5–10 ms per step, slowing down in the last 8 px).
 */
export async function windMousePath(from: Point, to: Point, random: () => number): Promise<TimedPoint[]> {
  const mouse = withSeededMath(random, () => new WindMouse(5));
  // GeneratePoints does all its work synchronously (an async function without awaits), so the
  // seeded Math.random covers every draw; only the result arrives through the promise.
  const pending = withSeededMath(random, () =>
    mouse.GeneratePoints({
      startX: from.x,
      startY: from.y,
      endX: to.x,
      endY: to.y,
      gravity: 9,
      wind: 3,
      minWait: 5,
      maxWait: 10,
      maxStep: 10,
      targetArea: 8,
    }),
  );
  const points = await pending;
  return points.map(([x, y, t]) => ({ x: x!, y: y!, t: t! }));
}
