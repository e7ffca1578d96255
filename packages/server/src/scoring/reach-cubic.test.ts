import { describe, expect, it } from 'vitest';
import { readMousePath } from './mouse-path.ts';
import {
  CUBIC_MAX_RMS_PX,
  CUBIC_MIN_SAMPLES,
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

const metrics = (r: ReturnType<typeof reach>) => reachCubicMetrics(readMousePath(r.mouse), r.clicks);

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
});
