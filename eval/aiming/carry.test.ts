import { describe, expect, it } from 'vitest';
import { HumanScript } from '../../e2e/support/human-input.ts';
import type { Sample } from '../lib/traces.ts';
import { carryReach, moveAlong, SHOP_LAYOUT } from './carry.ts';
import { aimingScript } from './script.ts';

/** A made-up reach: a bowed path from (0, 0) to (300, -400) polled every 10 ms, pressed 250 ms after it stops. */
const moves: Sample[] = Array.from({ length: 41 }, (_, i) => {
  const u = i / 40;
  return [1000 + 10 * i, Math.round(300 * u + 30 * Math.sin(Math.PI * u)), Math.round(-400 * u)];
});
const reach = { subject: 1, trial: 1, moves, press: [1650, 300, -400] as Sample };

describe('carrying a reach onto a leg of the form', () => {
  it('lands its first sample on the rest point and its last on the target, in floating point', () => {
    const from = { x: 200.4, y: 500 };
    const to = { x: 900.3, y: 176.6 };
    const { moves: out, dwellMs } = carryReach(reach, from, to);
    expect(out[0]).toEqual([0, 200.4, 500]);
    expect(out[out.length - 1]![1]).toBeCloseTo(to.x, 9);
    expect(out[out.length - 1]![2]).toBeCloseTo(to.y, 9);
    expect(out.some(([, x]) => !Number.isInteger(x))).toBe(true);
    expect(dwellMs).toBe(250);
  });

  it('keeps the shape: every step scaled by one factor, every turn kept (rotation and uniform scale)', () => {
    const from = { x: 0, y: 0 };
    const to = { x: 250, y: 0 };
    const { moves: out } = carryReach(reach, from, to);
    const k = 250 / 500;
    const step = (m: readonly Sample[], i: number) =>
      Math.hypot(m[i]![1] - m[i - 1]![1], m[i]![2] - m[i - 1]![2]);
    for (let i = 1; i < moves.length; i++) expect(step(out, i)).toBeCloseTo(step(moves, i) * k, 9);
  });

  it('keeps the recorded times, or stretches them by Fitts’ law for a longer leg', () => {
    const kept = carryReach(reach, { x: 0, y: 0 }, { x: 1000, y: 0 }).moves;
    expect(kept[kept.length - 1]![0]).toBe(400);
    const fitts = carryReach(reach, { x: 0, y: 0 }, { x: 1000, y: 0 }, 'fitts').moves;
    const stretch = Math.log2(1000 / 43 + 1) / Math.log2(500 / 43 + 1);
    expect(fitts[fitts.length - 1]![0]).toBeCloseTo(400 * stretch, 9);
  });

  it('rounds once to whole pixels for xdotool and sends no move that stays on its pixel', () => {
    const script = new HumanScript(1);
    const end = moveAlong(
      script,
      [
        [0, 10, 10],
        [10, 10.3, 10.2],
        [20, 11.6, 10.4],
        [30, 13.5, 12.5],
      ],
      { x: 10, y: 10 },
    );
    expect(script.lines.filter((l) => l.startsWith('mousemove'))).toEqual([
      'mousemove 12 10',
      'mousemove 14 13',
    ]);
    expect(end).toEqual({ x: 14, y: 13 });
  });
});

describe('a sign-in script from three reaches', () => {
  it('starts in the page, presses in each field and on submit, and types both fields', () => {
    const lines = aimingScript([reach, reach, reach], SHOP_LAYOUT, { email: 'a@b.co', password: 'pw' }, 5);
    expect(lines.filter((l) => l === 'mousedown 1')).toHaveLength(3);
    expect(lines.filter((l) => l.startsWith('keydown') && !l.includes('Shift'))).toHaveLength(8);
    // Where the pointer was at each press: inside email, password, submit.
    let at = { x: 0, y: 0 };
    const pressedAt: Array<{ x: number; y: number }> = [];
    for (const l of lines) {
      const [cmd, x, y] = l.split(' ');
      if (cmd === 'mousemove') at = { x: Number(x), y: Number(y) };
      if (cmd === 'mousedown') pressedAt.push(at);
    }
    for (const [i, box] of [SHOP_LAYOUT.email, SHOP_LAYOUT.password, SHOP_LAYOUT.submit].entries()) {
      expect(pressedAt[i]!.x).toBeGreaterThanOrEqual(box.x);
      expect(pressedAt[i]!.x).toBeLessThanOrEqual(box.x + box.width);
      expect(pressedAt[i]!.y).toBeGreaterThanOrEqual(box.y);
      expect(pressedAt[i]!.y).toBeLessThanOrEqual(box.y + box.height);
    }
  });
});
