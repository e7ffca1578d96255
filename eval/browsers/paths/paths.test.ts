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
const nearer = { x: 820, y: 520 }; // and 110 px again

/**
 * A login's moves as the SDK records them (16 ms throttle): the moves one after another with 3 s
 * of typing between them; each move ends in a press 120 ms later where it stopped (the benchmark's
 * scripts click after 80–220 ms), which makes each an aimed reach.
 */
function sdkSamples(...moves: TimedPoint[][]): { mouse: number[][]; click_samples: number[][] } {
  const mouse: number[][] = [];
  const presses: number[][] = [];
  let offset = 0;
  for (const move of moves) {
    const shifted = move.map((q) => ({ ...q, t: q.t + offset }));
    for (const p of shifted) {
      const last = mouse[mouse.length - 1];
      if (!last || p.t - last[0]! >= 16) mouse.push([p.t, Math.round(p.x), Math.round(p.y)]);
    }
    const end = shifted[shifted.length - 1]!;
    presses.push([end.t + 120, Math.round(end.x), Math.round(end.y), 0]);
    offset = end.t + 3000;
  }
  return { mouse, click_samples: presses };
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

  it('takes time in proportion to distance over a page, which mouse_speed_ignores_distance flags', async () => {
    // A hand's time grows with the log of the distance (Fitts' law); WindMouse's in proportion to
    // it (time exponent near 1, every reach on the line).
    let judged = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const random = mulberry32(seed);
      const long = await windMousePath(from, far, random);
      const short = await windMousePath(far, near, random);
      const shorter = await windMousePath(near, nearer, random);
      const f = baseFeatures({ behavior: behaviorMetrics(sdkSamples(long, short, shorter)) });
      const fit = f.behavior.aiming.time_fit;
      if (fit === null || f.behavior.aiming.reaches < 3) continue; // a short move fit in too few samples
      judged++;
      expect(f.behavior.aiming.length_ratio, `seed ${seed}`).toBeGreaterThan(4.5);
      expect(fit.exponent, `seed ${seed}`).toBeGreaterThan(0.85);
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
