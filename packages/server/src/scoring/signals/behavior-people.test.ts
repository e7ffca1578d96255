import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures } from '../test-fixtures.ts';
import { straightPath, syntheticJitter } from './behavior-tells.ts';

/**
 * Older path tells recalibrated on people aiming at targets (issue 24): generated pages in the
 * SDK's shape ([t, x, y] moves at 16 ms, whole pixels unless said, a press where each reach ends).
 */
type Move = [number, number, number];
const features = (mouse: Move[], clicks: number[][]) =>
  baseFeatures({
    surface: 'browser',
    has_behavior: true,
    behavior: behaviorMetrics({
      v: 1,
      mouse,
      click_samples: clicks,
      mouse_moves: mouse.length,
      clicks: clicks.length,
    }),
  });

/** A bell-speed reach from `a` to `b` (minimum jerk) bowed by `bow` px, `n` samples 16 ms apart from `t0`. */
function reach(t0: number, a: [number, number], b: [number, number], n: number, bow: number): Move[] {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const len = Math.hypot(dx, dy);
  const out: Move[] = [];
  for (let i = 1; i <= n; i++) {
    const u = i / n;
    const s = u ** 3 * (10 - 15 * u + 6 * u * u);
    const off = bow * Math.sin(Math.PI * s);
    out.push([
      t0 + 16 * i,
      Math.round(a[0] + dx * s - (dy / len) * off),
      Math.round(a[1] + dy * s + (dx / len) * off),
    ]);
  }
  return out;
}

type Point = [number, number];

/**
 * A page of reaches from (300, 600) to each target in turn, 2 s apart, with a press 150 ms after
 * the last move of each: `draw` gives the moves of the `i`-th reach, from `t0`.
 */
function page(targets: Point[], draw: (t0: number, from: Point, to: Point, i: number) => Move[]) {
  const mouse: Move[] = [];
  const clicks: number[][] = [];
  let t = 0;
  let at: Point = [300, 600];
  for (const [i, to] of targets.entries()) {
    const r = draw(t, at, to, i);
    mouse.push(...r);
    t = r[r.length - 1]![0];
    clicks.push([t + 150, to[0], to[1], 0]);
    at = to;
    t += 2000;
  }
  return features(mouse, clicks);
}

describe('mouse_synthetic_jitter: back-and-forth of more than a pixel', () => {
  const fields: Point[] = [
    [950, 180],
    [960, 270],
    [955, 370],
  ];
  it("passes a person's settling on the target: 1 px steps back and forth after each reach", () => {
    const f = page(fields, (t0, at, to) => {
      const r = reach(t0, at, to, 30, 25);
      let t = r[r.length - 1]![0];
      // Settling: right, back, right, back (1 px), as a hand corrects onto a field.
      for (const step of [1, -1, 1, -1, 1]) {
        t += 16;
        r.push([t, to[0] + (step > 0 ? 1 : 0), to[1]]);
      }
      return r;
    });
    expect(f.behavior.reversals).toBeGreaterThan(0.03);
    expect(syntheticJitter(f)).toBe(false);
  });

  it('flags jitter a library injects: the pointer stepping 2–4 px back and forth along its path', () => {
    const f = page(fields, (t0, at, to) => {
      const r = reach(t0, at, to, 30, 25);
      // Every fourth sample pushed 3 px across the path and back (pyHM-style jitter).
      r.forEach((m, i) => {
        if (i % 4 === 1) m[2] += 3;
        if (i % 4 === 2) m[2] -= 3;
      });
      return r;
    });
    expect(syntheticJitter(f)).toBe(true);
  });
});

describe('mouse_straight_path: a script draws every leg straight', () => {
  const legs: Point[] = [
    [950, 180],
    [950, 300],
  ];
  const straightPage = (bows: number[]) => page(legs, (t0, at, to, i) => reach(t0, at, to, 30, bows[i]!));
  it("passes a person's bowed reach followed by a short straight one between two fields", () => {
    const f = straightPage([40, 0]);
    expect([f.behavior.strokes, f.behavior.straight_strokes]).toEqual([2, 1]);
    expect(straightPath(f)).toBe(false);
  });
  it('flags a page whose every leg is ruler straight', () => {
    const f = straightPage([0, 0]);
    expect(f.behavior.straight_strokes).toBe(2);
    expect(straightPath(f)).toBe(true);
  });
});
