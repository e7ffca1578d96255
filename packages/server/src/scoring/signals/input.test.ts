import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures } from '../test-fixtures.ts';
import { behavior } from './behavior.ts';
import { input } from './input.ts';

/** A human approach to a field: ~40 moves easing in, then the click. */
function humanApproach(t0: number, x0: number, y0: number, x1: number, y1: number) {
  const mouse: Array<[number, number, number]> = [];
  for (let i = 1; i <= 40; i++) {
    const s = i / 40;
    const e = s * s * (3 - 2 * s);
    mouse.push([t0 + i * 16 + (i % 3), x0 + (x1 - x0) * e + (i % 5) - 2, y0 + (y1 - y0) * e + (i % 4)]);
  }
  return mouse;
}

function evidence(o: Record<string, unknown>) {
  return baseFeatures({
    surface: 'browser',
    event_type: 'signup',
    behavior: behaviorMetrics({ v: 1, ...o }),
  });
}

describe('input mechanics', () => {
  it('leaves a person who moves to each field and types normally alone', () => {
    const mouse = [...humanApproach(0, 10, 10, 400, 300), ...humanApproach(1500, 400, 300, 420, 380)];
    const keys = Array.from({ length: 12 }, (_, i) => [2000 + i * 180 + (i % 4) * 30, 70 + (i % 5) * 12]);
    const f = evidence({ mouse, mouse_moves: 80, clicks: 2, key_samples: keys, key_presses: 12 });
    expect(input.evaluate(f)).toEqual([]);
  });
  it('flags page.click() teleports: one move per click, or none', () => {
    const teleport = evidence({
      mouse: [
        [900, 400, 300],
        [2100, 420, 380],
        [3000, 500, 460],
      ],
      mouse_moves: 3,
      clicks: 3,
    });
    expect(input.evaluate(teleport).map((s) => s.rule)).toEqual(['click_without_movement']);
    expect(input.evaluate(evidence({ clicks: 4, mouse_moves: 0 })).map((s) => s.rule)).toEqual([
      'click_without_movement',
    ]);
  });
  it('does not flag taps on phones or touch screens', () => {
    const taps = { clicks: 4, mouse_moves: 0, touches: 9 };
    expect(input.evaluate(evidence(taps))).toEqual([]);
    expect(input.evaluate({ ...evidence({ clicks: 4, mouse_moves: 0 }), ua_mobile: true })).toEqual([]);
  });
  it('flags keys held for a millisecond (synthetic keydown/keyup pairs) on desktops', () => {
    const keys = Array.from({ length: 10 }, (_, i) => [1000 + i * 120 + (i % 3) * 40, 0.5 + (i % 3)]);
    const f = evidence({ key_samples: keys, key_presses: 10, mouse_moves: 50, clicks: 1 });
    expect(input.evaluate(f).map((s) => s.rule)).toEqual(['key_dwell_inhuman']);
    // Android virtual keyboards commit keydown/keyup together: not a tell there.
    expect(input.evaluate({ ...f, ua_mobile: true })).toEqual([]);
  });
  it('escalates in the behaviour family when two independent tells agree', () => {
    const mouse = Array.from({ length: 30 }, (_, i) => [i * 16, 100 + i * 10, 200 + i * 5]);
    const f = evidence({ mouse, mouse_moves: 30, clicks: 40 });
    const rules = behavior.evaluate(f).map((s) => s.rule);
    expect(rules).toContain('mouse_straight_path');
    expect(rules).toContain('behavior_bot_combined');
    expect(rules).not.toContain('behavior_humanlike');
  });
});
