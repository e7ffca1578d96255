import { describe, expect, it } from 'vitest';
import { readMousePath } from './mouse-path.ts';
import { stepsOf, walkFrom } from './path-walk.fixtures.ts';
import {
  STALL_INTERVALS,
  STALL_MAX_PAUSE_MS,
  STALL_MIN_SIDE,
  stallAt,
  timeWithoutPauses,
  withoutStalls,
} from './reach-stalls.ts';

/** Samples [t, x, y] along a line: a step of `step` px after each interval of `dts`. */
function line(dts: number[], step: (i: number) => number): number[][] {
  const out = [[1000, 100, 100]];
  let t = 1000;
  let x = 100;
  for (const [i, dt] of dts.entries()) {
    t += dt;
    x += step(i);
    out.push([t, x, 100]);
  }
  return out;
}

describe('withoutStalls', () => {
  it("takes a starved program's stall out of the reach's time: an ordinary step after a long wait", () => {
    // WindMouse-like: 6 px every 17 ms, once 125 ms (xdotool starved), then on at the same step.
    const dts = [17, 17, 17, 17, 125, 17, 17, 17, 17, 17];
    const path = readMousePath(line(dts, () => 6));
    const p = withoutStalls(path, 0, path.n - 1);
    expect(p.t[path.n - 1]! - p.t[0]!).toBe(17 * dts.length);
    expect(Array.from(p.x)).toEqual(Array.from(path.x));
  });

  it("keeps a hand's pause (it sets off again with a small step) and a late event's catch-up (a long step)", () => {
    const hand = readMousePath(line([17, 17, 17, 17, 120, 17, 17, 17], (i) => (i === 4 ? 1 : 8)));
    expect(withoutStalls(hand, 0, hand.n - 1)).toBe(hand);
    // A late frame whose coalesced positions came as one step 3× as long: speed kept.
    const late = readMousePath(line([17, 17, 17, 17, 51, 17, 17, 17], (i) => (i === 4 ? 24 : 8)));
    expect(withoutStalls(late, 0, late.n - 1)).toBe(late);
  });

  it(`needs an interval ${STALL_INTERVALS}× the median or longer`, () => {
    const jitter = readMousePath(line([17, 12, 25, 17, 30, 17, 10, 17], () => 6));
    expect(withoutStalls(jitter, 0, jitter.n - 1)).toBe(jitter);
  });
});

/** Samples [t, x, y]: steps of `steps[i]` = [dt, dx, dy] from (100, 100) at t = 1000. */
const walk = (steps: number[][]) => walkFrom([[1000, 100, 100]], steps);
const on = stepsOf;

describe('stallAt', () => {
  it('reads a pause after which the pointer went on with an ordinary step, the same way, as a stall', () => {
    // ghost-cursor's creep into the target at load 16: 1–2 px a step, then 389 ms, then 1.4 px on.
    const path = readMousePath(walk([...on(5, 30, 1, 1), [389, 1, 1], ...on(5, 30, 1, 1)]));
    expect(stallAt(path, 6, 0, path.n - 1)).toBe(true);
    // Far steps too: 34 px every ~90 ms, once 282 ms.
    const far = readMousePath(walk([...on(4, 90, 34), [282, 34, 2], ...on(4, 90, 34)]));
    expect(stallAt(far, 5, 0, far.n - 1)).toBe(true);
  });

  it("keeps a hand's stop: it sets off with a small step, or a late event carries a long one", () => {
    const small = readMousePath(walk([...on(5, 16, 8), [300, 1, 0], ...on(5, 16, 8)]));
    expect(stallAt(small, 6, 0, small.n - 1)).toBe(false);
    const long = readMousePath(walk([...on(5, 16, 8), [300, 60, 0], ...on(5, 16, 8)]));
    expect(stallAt(long, 6, 0, long.n - 1)).toBe(false);
  });

  it('keeps a stop after which the pointer went another way, and one over STALL_MAX_PAUSE_MS', () => {
    const turned = readMousePath(walk([...on(5, 16, 8), [300, 0, 8], ...on(5, 16, 0, 8)]));
    expect(stallAt(turned, 6, 0, turned.n - 1)).toBe(false);
    const back = readMousePath(walk([...on(5, 16, 8), [300, 8, 0], ...on(5, 16, -8)]));
    expect(stallAt(back, 6, 0, back.n - 1)).toBe(false);
    const long = readMousePath(walk([...on(5, 16, 8), [STALL_MAX_PAUSE_MS + 1, 8, 0], ...on(5, 16, 8)]));
    expect(stallAt(long, 6, 0, long.n - 1)).toBe(false);
  });

  it(`needs ${STALL_MIN_SIDE} steps of the movement on either side`, () => {
    const path = readMousePath(walk([...on(1, 16, 8), [300, 8, 0], ...on(5, 16, 8)]));
    expect(stallAt(path, 2, 0, path.n - 1)).toBe(false);
  });
});

describe('withoutStalls across a pause read as a stall', () => {
  it('re-times a pause over STROKE_PAUSE_MS inside the reach to its median interval', () => {
    // The creep's 1 px step is far under the reach's median step: only the pause rule re-times it.
    const path = readMousePath(walk([...on(8, 30, 20), ...on(3, 30, 1), [300, 1, 0], ...on(3, 30, 1)]));
    const p = withoutStalls(path, 0, path.n - 1);
    expect(p.t[path.n - 1]! - p.t[0]!).toBe(30 * (path.n - 1));
  });
});

describe('timeWithoutPauses', () => {
  it('counts a pause over STROKE_PAUSE_MS inside the reach as its median interval, and keeps shorter waits', () => {
    const paused = readMousePath(walk([...on(4, 20, 10), [380, 10, 0], ...on(4, 20, 10)]));
    expect(timeWithoutPauses(paused, 0, paused.n - 1)).toBe(20 * 9);
    // ghost-cursor's own sleeps (60 ms at most between steps) are its design.
    const slept = readMousePath(walk([...on(4, 20, 10), [60, 10, 0], ...on(4, 20, 10)]));
    expect(timeWithoutPauses(slept, 0, slept.n - 1)).toBe(20 * 8 + 60);
  });
});
