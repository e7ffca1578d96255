import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../../../packages/server/src/scoring/behavior-metrics.ts';
import { speedIgnoresDistance } from '../../../packages/server/src/scoring/signals/behavior-tells.ts';
import { baseFeatures } from '../../../packages/server/src/scoring/test-fixtures.ts';
import { mulberry32 } from '../../../packages/server/src/testing/rng.ts';
import { humanizePath } from './humanize.ts';
import { naturalMotionPath } from './natural-motion.ts';
import type { TimedPoint } from './timed-path.ts';
import { windMousePath } from './windmouse.ts';

const from = { x: 200, y: 700 };
const far = { x: 820, y: 300 }; // 738 px away
const near = { x: 820, y: 410 }; // then 110 px further

/**
 * A login's moves as the SDK records them (16 ms throttle): a long move, 3 s of typing, a short
 * one; each move ends in a press 120 ms later where it stopped (the benchmark's scripts click after
 * 80–220 ms), which makes both aimed strokes.
 */
function sdkSamples(
  first: TimedPoint[],
  second: TimedPoint[],
): { mouse: number[][]; click_samples: number[][] } {
  const mouse: number[][] = [];
  const shifted = second.map((q) => ({ ...q, t: q.t + first[first.length - 1]!.t + 3000 }));
  for (const p of [...first, ...shifted]) {
    const last = mouse[mouse.length - 1];
    if (!last || p.t - last[0]! >= 16) mouse.push([p.t, Math.round(p.x), Math.round(p.y)]);
  }
  const press = (pts: TimedPoint[]) => {
    const end = pts[pts.length - 1]!;
    return [end.t + 120, Math.round(end.x), Math.round(end.y), 0];
  };
  return { mouse, click_samples: [press(first), press(shifted)] };
}

const ends = (pts: TimedPoint[], at: { x: number; y: number }) => {
  const last = pts[pts.length - 1]!;
  return Math.hypot(last.x - at.x, last.y - at.y);
};

describe('the npm windmouse package as an adversary', () => {
  it('draws the same path for the same seed and reaches the target', async () => {
    const a = await windMousePath(from, far, mulberry32(1));
    const b = await windMousePath(from, far, mulberry32(1));
    expect(a).toEqual(b);
    expect(ends(a, far)).toBeLessThanOrEqual(2);
    for (let i = 1; i < a.length; i++) expect(a[i]!.t).toBeGreaterThanOrEqual(a[i - 1]!.t);
  });

  it('moves a long and a short distance at one speed, which mouse_speed_ignores_distance flags', async () => {
    // Speed grows with distance for people (every DELBOT pair 4× apart cruises ≥ length^0.12 faster);
    // WindMouse's stays put (under ^0.08, the signal's limit).
    let judged = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const random = mulberry32(seed);
      const long = await windMousePath(from, far, random);
      const short = await windMousePath(far, near, random);
      const f = baseFeatures({ behavior: behaviorMetrics(sdkSamples(long, short)) });
      const { stroke_length_ratio: length, stroke_speed_ratio: speed } = f.behavior;
      if (length === null || speed === null) continue; // the short move fit in under 8 samples
      judged++;
      expect(length, `seed ${seed}`).toBeGreaterThan(4);
      expect(Math.log(speed) / Math.log(length), `seed ${seed}`).toBeLessThan(0.08);
      expect(speedIgnoresDistance(f), `seed ${seed}`).toBe(true);
    }
    expect(judged).toBeGreaterThanOrEqual(15);
  });
});

describe('@extra/humanize as an adversary', () => {
  it('overshoots past 500 px and comes back, one fixed interval per step', () => {
    const pts = humanizePath(from, far, { width: 300, height: 40 }, mulberry32(2), 12);
    expect(ends(pts, far)).toBeLessThan(1);
    const furthest = Math.max(...pts.map((p) => Math.hypot(p.x - from.x, p.y - from.y)));
    const closest = Math.min(...pts.slice(0, -1).map((p) => ends([p], far)));
    expect(furthest > Math.hypot(far.x - from.x, far.y - from.y) || closest > 0).toBe(true);
    for (let i = 1; i < pts.length; i++) expect(pts[i]!.t - pts[i - 1]!.t).toBe(12);
  });

  it('goes straight to a near target (no overshoot under 500 px)', () => {
    const pts = humanizePath(far, near, { width: 300, height: 40 }, mulberry32(3), 10);
    expect(ends(pts, near)).toBeLessThan(1);
    expect(Math.max(...pts.map((p) => Math.hypot(p.x - far.x, p.y - far.y)))).toBeLessThan(140);
  });
});

describe('the NaturalMouseMotion-style generator', () => {
  it('lands on the target in 0.5–1 s of movement plus the pauses between overshoots', () => {
    for (const seed of [1, 2, 3]) {
      const pts = naturalMotionPath(from, far, mulberry32(seed));
      expect(ends(pts, far), `seed ${seed}`).toBeLessThanOrEqual(1);
      const total = pts[pts.length - 1]!.t;
      // Three overshoots (each 1/1.8 the time of the last) and the final move, with 20–140 ms pauses.
      expect(total).toBeGreaterThan(400);
      expect(total).toBeLessThan(
        1000 / 1.8 + 1000 / 1.8 ** 2 + 1000 / 1.8 ** 3 + 1000 / 1.8 ** 3 + 4 * 140 + 1,
      );
      for (let i = 1; i < pts.length; i++) expect(pts[i]!.t).toBeGreaterThanOrEqual(pts[i - 1]!.t);
    }
  });
});
