import { describe, expect, it } from 'vitest';
import { readMousePath } from './mouse-path.ts';
import { STALL_INTERVALS, withoutStalls } from './reach-stalls.ts';

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
