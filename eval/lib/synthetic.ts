import { clampTo, type Pt, r1, type Viewport } from './geometry.ts';
import type { Rng } from './rng.ts';
import type { Sample } from './traces.ts';

/**
 * Held-out scripted mouse movement (never seen by the engine's tuning): straight lines, Bezier
 * curves and replayed human paths, with the timing automation tools actually produce.
 */
export type Timing =
  /** CDP Input.dispatchMouseEvent in a loop (Puppeteer/Playwright `steps`): ~0.3–1.5 ms apart. */
  | { kind: 'burst' }
  /** A fixed sleep between moves (setTimeout / time.sleep), sub-ms scheduler noise. */
  | { kind: 'fixed'; dt: number }
  /** Uniform random sleeps ("humanised" scripts). */
  | { kind: 'random'; min: number; max: number };

function times(rng: Rng, n: number, t0: number, timing: Timing): number[] {
  const out: number[] = [];
  let t = t0;
  for (let i = 0; i < n; i++) {
    out.push(t);
    if (timing.kind === 'burst') t += rng.uniform(0.3, 1.5);
    else if (timing.kind === 'fixed') t += timing.dt + rng.uniform(0, 0.6);
    else t += rng.uniform(timing.min, timing.max);
  }
  return out;
}

/** Evenly spaced points on a straight line: constant speed. */
export function linearPath(rng: Rng, from: Pt, to: Pt, steps: number, t0: number, timing: Timing): Sample[] {
  const ts = times(rng, steps + 1, t0, timing);
  return ts.map((t, i) => {
    const k = i / steps;
    return [t, r1(from.x + (to.x - from.x) * k), r1(from.y + (to.y - from.y) * k)] as const;
  });
}

/** A cubic Bezier with random control points, evenly spaced in the curve parameter. */
export function bezierPath(
  rng: Rng,
  from: Pt,
  to: Pt,
  steps: number,
  t0: number,
  timing: Timing,
  view: Viewport,
): Sample[] {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len = Math.hypot(dx, dy) || 1;
  const nx = -dy / len;
  const ny = dx / len;
  const bend = () => rng.uniform(-0.35, 0.35) * len;
  const c1 = { x: from.x + dx * 0.3 + nx * bend(), y: from.y + dy * 0.3 + ny * bend() };
  const c2 = { x: from.x + dx * 0.7 + nx * bend(), y: from.y + dy * 0.7 + ny * bend() };
  const ts = times(rng, steps + 1, t0, timing);
  return ts.map((t, i) => {
    const u = i / steps;
    const a = (1 - u) ** 3;
    const b = 3 * (1 - u) ** 2 * u;
    const c = 3 * (1 - u) * u ** 2;
    const d = u ** 3;
    const p = clampTo(view, {
      x: a * from.x + b * c1.x + c * c2.x + d * to.x,
      y: a * from.y + b * c1.y + c * c2.y + d * to.y,
    });
    return [t, r1(p.x), r1(p.y)] as const;
  });
}

/** ghost-cursor style: Bezier with Fitts'-law step count and an overshoot, dispatched in a burst. */
export function ghostCursorPath(rng: Rng, from: Pt, to: Pt, t0: number, view: Viewport): Sample[] {
  const len = Math.hypot(to.x - from.x, to.y - from.y);
  const steps = Math.max(25, Math.round(Math.log2(len / 30 + 1) * 25));
  const overshoot = len > 500 && rng.chance(0.5);
  if (!overshoot) return bezierPath(rng, from, to, steps, t0, { kind: 'burst' }, view);
  const beyond = clampTo(view, { x: to.x + rng.normal(0, 40), y: to.y + rng.normal(0, 40) });
  const first = bezierPath(rng, from, beyond, steps, t0, { kind: 'burst' }, view);
  const t1 = first[first.length - 1]![0] + rng.uniform(0.5, 2);
  return [...first, ...bezierPath(rng, beyond, to, 10, t1, { kind: 'burst' }, view).slice(1)];
}

/** A recorded human path replayed with its timestamps re-spaced uniformly (a "record and replay" bot). */
export function respaceUniform(path: readonly Sample[], t0: number, dt: number, rng: Rng): Sample[] {
  return path.map(([, x, y], i) => [t0 + i * dt + rng.uniform(0, 0.4), x, y] as const);
}
