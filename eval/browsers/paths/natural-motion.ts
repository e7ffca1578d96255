import type { Point, TimedPoint } from './timed-path.ts';

/**
 * A generator in the manner of NaturalMouseMotion (Java, JoonasVali/NaturalMouseMotion, MIT): its
 * default "nature" was read to learn the ingredients, and this is written afresh, not ported.
 * The ingredients:
 * - a movement time of 0.5–1 s whatever the distance, cut into equal time steps of about 8 ms
 *   (at least 10 steps, never more steps than pixels);
 * - a speed "flow" picked at random per movement: a handful of relative-speed shapes (even, rising
 *   and falling, slow start, wavering, halting midway), the step length following the shape;
 * - a sideways arc that swells and fades as one sine period over the movement, up to a tenth of
 *   the distance, on a random side;
 * - occasional small random kicks that accumulate (noise), the arc and the noise fading out over
 *   the last 15 steps so the pointer lands on the target;
 * - up to three overshoots: it first aims at false targets around the real one (further off for
 *   longer moves), each next attempt faster, with a 20–140 ms pause between attempts.
 */

/** Relative speeds over the movement (each entry an equal slice of its time). */
const FLOWS: number[][] = [
  [1, 1, 1, 1, 1, 1, 1, 1],
  [1, 3, 6, 8, 8, 6, 4, 2, 1],
  [0.5, 1, 2, 4, 7, 9, 9, 7, 4, 2],
  [3, 5, 2, 6, 3, 7, 4, 5, 2, 3],
  [4, 7, 8, 5, 0, 0, 4, 7, 6, 2],
  [2, 6, 9, 9, 7, 5, 4, 3, 3, 2, 2, 1],
];
const STEP_MS = 8;
const MIN_STEPS = 10;
const FADE_STEPS = 15;
const ARC_DIVIDER = 10;
const NOISE_CHANCE = 0.5;
const OVERSHOOTS = 3;

export function naturalMotionPath(from: Point, to: Point, random: () => number): TimedPoint[] {
  const out: TimedPoint[] = [];
  let at = { ...from };
  let clock = 0;
  let movementMs = 500 + random() * 500;
  let overshoots = Math.hypot(to.x - from.x, to.y - from.y) > 10 ? OVERSHOOTS : 0;
  for (
    let attempt = 0;
    attempt < 8 && (Math.round(at.x) !== Math.round(to.x) || Math.round(at.y) !== Math.round(to.y));
    attempt++
  ) {
    let aim = to;
    if (overshoots > 0) {
      const off = (Math.hypot(to.x - at.x, to.y - at.y) / 20) * overshoots;
      aim = { x: to.x + Math.trunc((random() - 0.5) * off), y: to.y + Math.trunc((random() - 0.5) * off) };
      movementMs = Math.max(40, movementMs / 1.8);
      overshoots--;
    }
    const segment = stroke(at, aim, movementMs, random);
    for (const p of segment) out.push({ x: p.x, y: p.y, t: clock + p.t });
    clock += movementMs;
    at = aim;
    if (Math.round(at.x) !== Math.round(to.x) || Math.round(at.y) !== Math.round(to.y))
      clock += 20 + random() * 120;
  }
  return out;
}

/** One movement from `a` to `b` in `ms`, with the flow, the arc and the noise. */
function stroke(a: Point, b: Point, ms: number, random: () => number): TimedPoint[] {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const distance = Math.hypot(dx, dy);
  if (distance < 1) return [{ x: b.x, y: b.y, t: ms }];
  const steps = Math.ceil(Math.min(distance, Math.max(ms / STEP_MS, MIN_STEPS)));
  const flow = FLOWS[Math.floor(random() * FLOWS.length)]!;
  const speedAt = (f: number) => flow[Math.min(flow.length - 1, Math.floor(f * flow.length))]!;
  let total = 0;
  for (let i = 0; i < steps; i++) total += speedAt(i / steps);
  const arcX = (random() - 0.5) * 2 * (distance / ARC_DIVIDER);
  const arcY = (random() - 0.5) * 2 * (distance / ARC_DIVIDER);
  const out: TimedPoint[] = [];
  let done = 0;
  let noiseX = 0;
  let noiseY = 0;
  for (let i = 0; i < steps; i++) {
    done += speedAt(i / steps) / total;
    const stepLength = (distance * speedAt(i / steps)) / total;
    if (random() < NOISE_CHANCE) {
      noiseX += (random() - 0.5) * Math.max(1, stepLength / 4);
      noiseY += (random() - 0.5) * Math.max(1, stepLength / 4);
    }
    const fade = Math.min(1, (steps - 1 - i) / FADE_STEPS);
    const swell = (1 - Math.cos(done * 2 * Math.PI)) / 2;
    out.push({
      x: Math.round(a.x + dx * done + (arcX * swell + noiseX) * fade),
      y: Math.round(a.y + dy * done + (arcY * swell + noiseY) * fade),
      t: ((i + 1) * ms) / steps,
    });
  }
  return out;
}
