import { createRequire } from 'node:module';
import { type Point, type TimedPoint, withSeededMath } from './timed-path.ts';

const require = createRequire(import.meta.url);
/** `@extra/humanize`'s own path generator and overshoot (the plugin drives puppeteer/playwright pages only). */
const calc = require('@extra/humanize/dist/mouse/calc.js') as {
  path(start: Point, end: Point | (Point & { width: number; height: number }), spread?: number): Point[];
};
const math = require('@extra/humanize/dist/mouse/math.js') as {
  overshoot(coordinate: Point, radius: number): Point;
};

/** The plugin's constants (dist/mouse/spoof.js). */
const OVERSHOOT_THRESHOLD = 500;
const OVERSHOOT_RADIUS = 120;
const OVERSHOOT_SPREAD = 10;

/**
 * What `@extra/humanize`'s cursor.move does — a Bezier path with a Fitts's-law step count, and past
 * 500 px an overshoot to a random point within 120 px and a corrective path back — replayed at one
 * fixed interval per step (`stepMs`): the plugin moves as fast as CDP answers, so a script moving
 * the OS pointer along its points has to pick a delay, and a uniform one is what it picks.
 */
export function humanizePath(
  from: Point,
  to: Point,
  box: { width: number; height: number },
  random: () => number,
  stepMs: number,
): TimedPoint[] {
  const points = withSeededMath(random, () => {
    if (Math.hypot(to.x - from.x, to.y - from.y) <= OVERSHOOT_THRESHOLD) return calc.path(from, to);
    const over = math.overshoot(to, OVERSHOOT_RADIUS);
    return [
      ...calc.path(from, over),
      ...calc.path(over, { ...to, width: box.width, height: box.height }, OVERSHOOT_SPREAD),
    ];
  });
  return points.map((p, i) => ({ x: p.x, y: p.y, t: i * stepMs }));
}
