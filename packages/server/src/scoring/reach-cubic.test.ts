import { describe, expect, it } from 'vitest';
import { aimedReachSpans } from './aimed-reaches.ts';
import { type MousePath, readMousePath } from './mouse-path.ts';
import {
  CUBIC_MAX_RMS_PX,
  CUBIC_MIN_SAMPLES,
  cubicBeforeTurnBack,
  cubicFit,
  isCubic,
  NO_REACH_CUBIC,
  reachCubicMetrics,
} from './reach-cubic.ts';

type Sample = [number, number, number];

/** A cubic Bezier from `p0` to `p3` through the anchors `p1`, `p2` at parameter u. */
const bezier = (p: readonly (readonly [number, number])[], u: number): [number, number] => {
  const w = [(1 - u) ** 3, 3 * u * (1 - u) ** 2, 3 * u ** 2 * (1 - u), u ** 3];
  return [0, 1].map((k) => w.reduce((sum, wi, i) => sum + wi * p[i]![k]!, 0)) as [number, number];
};
const minJerk = (u: number) => 10 * u ** 3 - 15 * u ** 4 + 6 * u ** 5;

/**
 * One reach of `kind` from (300, 400) to (400, 440) after a rest, recorded as the SDK does (whole
 * pixels, a sample per 16 ms or more) and pressed where it stopped: `bezier`, @extra/humanize's
 * way (points at even steps of the curve's parameter, one every 12 ms); `line`, one speed along a
 * straight line; `hand`, a minimum-jerk primary submovement over 94 % of the way and a slow
 * correction (the smoothest a hand draws).
 */
function reach(kind: 'bezier' | 'line' | 'hand', t0 = 1000) {
  const mouse: Sample[] = [[t0 - 600, 300, 400]];
  const anchors = [
    [300, 400],
    [330, 370],
    [350, 450],
    [400, 440],
  ] as const;
  const steps = 40;
  const at = (u: number): [number, number] => {
    if (kind === 'bezier') return bezier(anchors, u);
    const s =
      kind === 'line' ? u : u <= 0.7 ? 0.94 * minJerk(u / 0.7) : 0.94 + 0.06 * minJerk((u - 0.7) / 0.3);
    return [300 + 100 * s, 400 + 40 * s];
  };
  let last = Number.NEGATIVE_INFINITY;
  for (let i = 1; i <= steps; i++) {
    const t = t0 + 12 * i;
    if (t - last < 16 && i < steps) continue;
    last = t;
    const [x, y] = at(i / steps);
    mouse.push([t, Math.round(x), Math.round(y)]);
  }
  const end = mouse[mouse.length - 1]!;
  return { mouse, clicks: [[end[0] + 150, end[1], end[2], 0]] };
}

const pressed = (path: MousePath, clicks: number[][]) =>
  reachCubicMetrics(path, aimedReachSpans(path, clicks));
const metrics = (r: ReturnType<typeof reach>) => pressed(readMousePath(r.mouse), r.clicks);

describe('reachCubicMetrics', () => {
  it("finds a Bezier stepped at even parameter steps, one per fixed interval: a cubic in time to the pixel's rounding", () => {
    const m = metrics(reach('bezier'));
    expect(m.fitted).toBe(1);
    expect(m.cubic).toBe(1);
    expect(m.min_rms_px!).toBeLessThan(CUBIC_MAX_RMS_PX);
  });

  it('clears the smoothest reach a hand draws (minimum jerk and a correction): a cubic leaves its shape', () => {
    const m = metrics(reach('hand'));
    expect(m.fitted).toBe(1);
    expect(m.cubic).toBe(0);
  });

  it('clears a straight line at one speed (a remote desktop interpolating, mouse keys): a line explains it', () => {
    const path = readMousePath(reach('line').mouse);
    const fit = cubicFit(path, 1, path.n - 1)!;
    expect(fit.rms).toBeLessThan(CUBIC_MAX_RMS_PX);
    expect(isCubic(fit)).toBe(false);
    expect(metrics(reach('line')).cubic).toBe(0);
  });

  it('fits no reach under CUBIC_MIN_SAMPLES samples', () => {
    const r = reach('bezier');
    const k = CUBIC_MIN_SAMPLES - 1;
    const short = {
      mouse: r.mouse.slice(0, k),
      clicks: [[r.mouse[k - 1]![0] + 100, r.mouse[k - 1]![1], r.mouse[k - 1]![2], 0]],
    };
    expect(metrics(short)).toEqual(NO_REACH_CUBIC);
  });

  it('counts a reach that turned back after a cubic piece (an overshoot and its correction), not one that bent on', () => {
    const over = reach('bezier');
    const from = over.mouse[over.mouse.length - 1]!;
    const withCorrection = (dx: number, dy: number) => {
      const back: Sample[] = [];
      for (let i = 1; i <= 10; i++) {
        const u = i / 10;
        back.push([from[0] + 24 * i, Math.round(from[1] + dx * u), Math.round(from[2] + dy * u)]);
      }
      const end = back[back.length - 1]!;
      const path = readMousePath([...over.mouse, ...back]);
      return { path, clicks: [[end[0] + 150, end[1], end[2], 0]] };
    };
    // Back the way it came (a turn of ~170°): the piece before the turn is the Bezier.
    const turned = withCorrection(-40, -6);
    expect(cubicBeforeTurnBack(turned.path, 1, turned.path.n - 1)).toBe(over.mouse.length - 1);
    expect(pressed(turned.path, turned.clicks)).toMatchObject({ fitted: 1, cubic: 1 });
    // On at a right angle or less: no turn back, and the whole is no cubic.
    const bent = withCorrection(10, 40);
    expect(cubicBeforeTurnBack(bent.path, 1, bent.path.n - 1)).toBe(-1);
    expect(pressed(bent.path, bent.clicks)).toMatchObject({ fitted: 1, cubic: 0 });
  });
});
