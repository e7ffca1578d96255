import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../testing/rng.ts';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures, humanKeys } from '../test-fixtures.ts';
import { behavior } from './behavior.ts';
import { input } from './input.ts';

/**
 * Issue 24: tells that fired on people aiming at buttons (mousetrap KH2017, held out) and on
 * remote desktops, against generated people and bots. A generated reach: a minimum-jerk speed
 * profile along a path bowed by `bow` px, a movement time growing with the distance (Fitts) and
 * scattered, samples every 16–18 ms on whole pixels, optionally an overshoot and one back-step
 * onto the target, then a rest before the press.
 */
type Sample = [number, number, number];

interface Reach {
  from: [number, number];
  to: [number, number];
  bow?: number;
  /** Overshoot past the target (px), then one step back onto it. */
  overshoot?: number;
  /** Time resting on the target before the press (ms). */
  rest?: number;
}

function aimedReach(rand: () => number, t0: number, r: Reach): { moves: Sample[]; press: Sample } {
  const [x0, y0] = r.from;
  const [x1, y1] = r.to;
  const d = Math.hypot(x1 - x0, y1 - y0);
  const duration = (250 + 140 * Math.log2(d / 40 + 1)) * (0.85 + 0.3 * rand());
  const nx = -(y1 - y0) / d;
  const ny = (x1 - x0) / d;
  const over = r.overshoot ?? 0;
  const ex = x1 + ((x1 - x0) / d) * over;
  const ey = y1 + ((y1 - y0) / d) * over;
  // The pointer rests at `from`: a device sends no move that does not move it.
  const moves: Sample[] = [];
  let at: [number, number] = [x0, y0];
  const move = (s: Sample) => {
    if (s[1] === at[0] && s[2] === at[1]) return;
    moves.push(s);
    at = [s[1], s[2]];
  };
  let t = t0;
  for (;;) {
    t += 16 + rand() * 2;
    const u = Math.min(1, (t - t0) / duration);
    const s = u ** 3 * (10 - 15 * u + 6 * u * u);
    const bend = 4 * (r.bow ?? 0) * s * (1 - s);
    const x = Math.round(x0 + (ex - x0) * s + nx * bend);
    const y = Math.round(y0 + (ey - y0) * s + ny * bend);
    move([t, x, y]);
    if (u >= 1) break;
  }
  if (over > 0) move([t + 60, x1, y1]);
  const last = moves[moves.length - 1]!;
  return { moves, press: [last[0] + (r.rest ?? 150), last[1], last[2]] };
}

/** A login page: the reaches one after another (typing between them), human keys, the presses. */
function page(reaches: readonly Reach[], seed = 1, step: (moves: Sample[]) => Sample[] = (m) => m) {
  const rand = mulberry32(seed);
  const mouse: Sample[] = [];
  const clicks: number[][] = [];
  let t = 1200;
  for (const r of reaches) {
    const { moves, press } = aimedReach(rand, t, r);
    mouse.push(...step(moves));
    clicks.push([...press, 0]);
    t = press[0] + 2500;
  }
  return baseFeatures({
    surface: 'browser',
    has_behavior: true,
    behavior: behaviorMetrics({
      mouse,
      mouse_moves: mouse.length,
      clicks: clicks.length,
      click_samples: clicks,
      key_samples: humanKeys(seed, 24, 3000),
      key_presses: 24,
      time_to_submit_ms: t,
      pointer_steps: pointerSteps(mouse),
    }),
  });
}

/** The SDK's `pointer_steps` of these moves (each one event): ≤ 200 ms apart; sparse ≥ 40 ms and ≥ 8 px. */
function pointerSteps(mouse: readonly Sample[]): { moving: number; sparse: number } {
  let moving = 0;
  let sparse = 0;
  for (let i = 1; i < mouse.length; i++) {
    const gap = mouse[i]![0] - mouse[i - 1]![0];
    const moved = Math.hypot(mouse[i]![1] - mouse[i - 1]![1], mouse[i]![2] - mouse[i - 1]![2]);
    if (gap > 200 || moved === 0) continue;
    moving++;
    if (gap >= 40 && moved >= 8) sparse++;
  }
  return { moving, sparse };
}

/** A remote desktop on a slow link: the newest position every ~94 ms (sample and hold). */
function remote94(moves: Sample[]): Sample[] {
  const out: Sample[] = [];
  let at = moves[0]![0];
  let i = 0;
  while (at <= moves[moves.length - 1]![0] + 94) {
    while (i + 1 < moves.length && moves[i + 1]![0] <= at) i++;
    const [, x, y] = moves[i]!;
    const last = out[out.length - 1];
    if (!last || last[1] !== x || last[2] !== y) out.push([at, x, y]);
    at += 88 + ((out.length * 7) % 13);
  }
  return out;
}

const fired = (f: ReturnType<typeof page>) =>
  [...behavior.evaluate(f), ...input.evaluate(f)].filter((s) => s.score > 0).map((s) => s.rule);

const FORM: Reach[] = [
  { from: [900, 140], to: [640, 420], bow: 30, overshoot: 3 },
  { from: [640, 420], to: [700, 520], bow: 6, overshoot: 2 },
  { from: [700, 520], to: [660, 640], bow: -8, overshoot: 2 },
];

describe('people aiming at a form (issue 24)', () => {
  it('one back-step onto each target is a correction, not jitter; back and forth is jitter', () => {
    const person = page(FORM);
    // The old reversal share (> 3 %) fired on these: one back-step among ~25 turns per reach.
    expect(person.behavior.reversals).toBeGreaterThan(0.03);
    expect(person.behavior.zigzags).toBe(0);
    expect(fired(person)).toEqual([]);
    // pyHM-style noise: the pointer steps back and forth along the way.
    const jittered = page(FORM, 1, (moves) =>
      moves.map(([t, x, y], i) => [t, x + (i % 2 === 0 ? 4 : -4), y + (i % 2 === 0 ? 3 : -3)] as Sample),
    );
    expect(jittered.behavior.zigzags).toBeGreaterThanOrEqual(2);
    expect(fired(jittered)).toContain('mouse_synthetic_jitter');
  });

  it('a 740 px stroke at constant height and bowed aimed reaches are neither ruler straight nor a parametric curve', () => {
    const person = page([
      { from: [1200, 300], to: [460, 300] },
      { from: [460, 300], to: [1060, 800], bow: 14 },
      { from: [1060, 800], to: [560, 340], bow: -12 },
    ]);
    // chord/path > 0.995 on every stroke: the old test of straightness took all three for ruled lines.
    expect(person.behavior.strokes).toBe(3);
    expect(fired(person)).not.toContain('mouse_straight_path');
    expect(fired(person)).not.toContain('mouse_smooth_curve');
    expect(fired(person)).toEqual([]);
  });

  it('a script drawing straight lines between the fields is still ruler straight', () => {
    const line = (from: [number, number], to: [number, number], t0: number): Sample[] =>
      Array.from({ length: 40 }, (_, i) => [
        t0 + i * 16,
        Math.round(from[0] + ((to[0] - from[0]) * (i + 1)) / 40),
        Math.round(from[1] + ((to[1] - from[1]) * (i + 1)) / 40),
      ]);
    const mouse = [...line([900, 140], [640, 420], 1000), ...line([640, 420], [700, 620], 4000)];
    const f = baseFeatures({
      surface: 'browser',
      has_behavior: true,
      behavior: behaviorMetrics({ mouse, mouse_moves: mouse.length, time_to_submit_ms: 8000 }),
    });
    expect(f.behavior.straight_strokes).toBe(2);
    expect(fired(f)).toContain('mouse_straight_path');
  });

  it('a person resting on each field over a second before pressing approached it', () => {
    const person = page(FORM.map((r) => ({ ...r, rest: 1300 })));
    expect(person.behavior.teleport_clicks).toBe(0);
    expect(fired(person)).toEqual([]);
    // A pointer that jumps onto each field (one sample) and presses after a wait did not.
    const mouse: Sample[] = [
      [1000, 640, 420],
      [5000, 700, 520],
      [9000, 660, 640],
    ];
    const clicks = mouse.map(([t, x, y]) => [t + 1300, x, y, 0]);
    const jumps = baseFeatures({
      surface: 'browser',
      has_behavior: true,
      behavior: behaviorMetrics({ mouse, click_samples: clicks, clicks: 3, time_to_submit_ms: 12000 }),
    });
    expect(jumps.behavior.teleport_clicks).toBe(3);
  });

  it('a remote desktop reporting every ~94 ms: the path tells abstain, no risk and no trust', () => {
    const remote = page(FORM, 1, remote94);
    expect(remote.behavior.pointer_steps?.sparse).toBeGreaterThanOrEqual(10);
    const signals = [...behavior.evaluate(remote), ...input.evaluate(remote)];
    // Before: mouse_sparse_updates 20 with path tells on the jumps and behavior_bot_combined.
    expect(signals.filter((s) => s.score !== 0)).toEqual([]);
    expect(signals.map((s) => s.rule)).toEqual(['mouse_sparse_updates']);
  });

  it('sparse updates with zero-length moves (pynput): two tells of the input source still combine', () => {
    const pynput = page(FORM, 1, (moves) =>
      remote94(moves).flatMap(([t, x, y]) => [[t, x, y] as Sample, [t + 20, x, y] as Sample]),
    );
    expect(fired(pynput)).toEqual(
      expect.arrayContaining(['mouse_stationary_moves', 'behavior_bot_combined']),
    );
  });
});
