import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../testing/rng.ts';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures, humanKeys, humanSession, loadTrace, traceFiles } from '../test-fixtures.ts';
import { behavior } from './behavior.ts';
import { scriptedInput } from './behavior-tells.ts';

const BOT_RULES = new Set([
  'mouse_straight_path',
  'mouse_constant_speed',
  'mouse_synthetic_jitter',
  // Soft since issue 14 (a fast hand on a rarely reporting device turns this much), still a tell.
  'mouse_sharp_turns',
  'mouse_stationary_moves',
  'mouse_smooth_curve',
  'timing_regular',
]);

function evaluateTrace(file: string) {
  const { mouse, clicks } = loadTrace(file);
  const evidence = {
    v: 1,
    mouse: mouse.slice(0, 600),
    mouse_moves: mouse.length,
    clicks,
    time_to_submit_ms: 9000,
  };
  return behavior.evaluate(baseFeatures({ surface: 'browser', behavior: behaviorMetrics(evidence) }));
}

function flaggedShare(dir: string): number {
  const files = traceFiles(dir);
  if (files.length === 0) throw new Error(`tuning traces missing: ${dir}`);
  const flagged = files.filter((f) => evaluateTrace(f).some((s) => BOT_RULES.has(s.rule)));
  return flagged.length / files.length;
}

describe('behaviour on DELBOT-Mouse traces', () => {
  it('leaves human traces unflagged (≤ 2%) and mostly trusts them', () => {
    expect(flaggedShare('circles_human_pc1')).toBeLessThanOrEqual(0.02);
    const files = traceFiles('circles_human_pc1');
    const trusted = files.filter((f) => evaluateTrace(f).some((s) => s.rule === 'behavior_humanlike'));
    expect(trusted.length / files.length).toBeGreaterThan(0.9);
  });

  it('flags most pyHM human-emulation traces', () => {
    expect(flaggedShare('circles_bot_pyhm')).toBeGreaterThan(0.8);
  });

  it('flags most pynput traces', () => {
    expect(flaggedShare('circles_bot_pynput')).toBeGreaterThan(0.6);
  });
});

describe('behaviour rules', () => {
  const form = (evidence: unknown, event: 'login' | 'page_view' = 'login') =>
    behavior
      .evaluate(baseFeatures({ surface: 'browser', event_type: event, behavior: behaviorMetrics(evidence) }))
      .map((s) => s.rule);

  it('flags a browser form without behaviour, but not page views or server calls', () => {
    expect(form(undefined)).toEqual(['behavior_missing']);
    expect(form(undefined, 'page_view')).toEqual([]);
    expect(behavior.evaluate(baseFeatures({ surface: 'server' }))).toEqual([]);
  });

  it('flags no interaction and a too-fast submit', () => {
    expect(form({ time_to_submit_ms: 400 })).toEqual(['no_interaction', 'fast_submit']);
  });

  it('flags a ruler-straight scripted path with metronomic timing', () => {
    const mouse = Array.from({ length: 40 }, (_, i) => [i * 10, 100 + i * 12, 200 + i * 6]);
    const rules = form({ mouse, mouse_moves: 40, time_to_submit_ms: 5000 });
    expect(rules).toContain('mouse_straight_path');
    expect(rules).toContain('timing_regular');
    expect(rules).not.toContain('behavior_humanlike');
  });

  it('flags strokes moved at one constant speed, and not a hand that accelerates and brakes', () => {
    // Three curved strokes (quarter circles, so not straight) of 480 ms, 300 ms apart, sampled at
    // irregular intervals (so not metronomic). `progress(u)` maps elapsed time (0..1) to how far
    // along the arc the pointer is.
    const strokes = (progress: (u: number) => number) => {
      const mouse: number[][] = [];
      let t = 0;
      for (let s = 0; s < 3; s++) {
        const cx = 300 + s * 200;
        const start = t;
        for (let i = 0; t - start <= 480; i++) {
          const angle = (Math.PI / 2) * progress((t - start) / 480);
          mouse.push([t, Math.round(cx + 150 * Math.cos(angle)), Math.round(300 + 150 * Math.sin(angle))]);
          t += 12 + ((i * 7 + s) % 9);
        }
        t += 300;
      }
      return mouse;
    };
    const constant = form({ mouse: strokes((u) => u), time_to_submit_ms: 5000 });
    expect(constant).toContain('mouse_constant_speed');
    expect(constant).not.toContain('mouse_straight_path');
    expect(constant).not.toContain('timing_regular');
    // Minimum-jerk profile: slow start, fast middle, slow end.
    const hand = form({
      mouse: strokes((u) => u * u * u * (10 - 15 * u + 6 * u * u)),
      time_to_submit_ms: 5000,
    });
    expect(hand).not.toContain('mouse_constant_speed');
  });

  it('jitter: reversals are a hard tell; sharp turns alone are soft (20, not scripted), and not with sparse updates', () => {
    // A zigzag: every move turns back on the one before (reversals).
    const zigzag = Array.from({ length: 30 }, (_, i) => [
      i * 16 + (i % 3),
      100 + i * 6,
      200 + (i % 2 ? 14 : 0),
    ]);
    const jittered = form({ mouse: zigzag, time_to_submit_ms: 5000 });
    expect(jittered).toContain('mouse_synthetic_jitter');
    expect(jittered).not.toContain('mouse_sharp_turns');
    // A tight spiral sampled coarsely, with a hand's uneven bending: ~0.5 rad per move, always the
    // same way (no reversal).
    let a = 0;
    const spiral = Array.from({ length: 30 }, (_, i) => {
      a += 0.5 + (((i * 7) % 5) - 2) * 0.06;
      const r = 60 + i * 4;
      return [
        i * 33 + ((i * 7) % 11) * 3,
        Math.round(400 + r * Math.cos(a)),
        Math.round(300 + r * Math.sin(a)),
      ];
    });
    const f = baseFeatures({
      surface: 'browser',
      behavior: behaviorMetrics({ mouse: spiral, time_to_submit_ms: 5000 }),
    });
    const sharp = behavior.evaluate(f);
    expect(sharp.map((s) => [s.rule, s.score])).toContainEqual(['mouse_sharp_turns', 20]);
    expect(sharp.map((s) => s.rule)).not.toContain('mouse_synthetic_jitter');
    expect(scriptedInput(f)).toBe(false);
    const withSparse = behavior.evaluate(
      baseFeatures({
        surface: 'browser',
        behavior: behaviorMetrics({
          mouse: spiral,
          time_to_submit_ms: 5000,
          pointer_steps: { moving: 29, sparse: 20 },
        }),
      }),
    );
    expect(withSparse.map((s) => s.rule)).toContain('mouse_sparse_updates');
    expect(withSparse.map((s) => s.rule)).not.toContain('mouse_sharp_turns');
    expect(withSparse.map((s) => s.rule)).not.toContain('behavior_bot_combined');
  });

  it('flags burst-dispatched synthetic events (all within a few ms)', () => {
    const mouse = Array.from({ length: 30 }, (_, i) => [
      1000 + i * 0.5,
      100 + i * 3 + (i % 3),
      300 + ((i * 7) % 5),
    ]);
    expect(form({ mouse, time_to_submit_ms: 5000 })).toContain('timing_regular');
  });

  it('flags metronomic keystrokes', () => {
    const key_samples = Array.from({ length: 12 }, (_, i) => [i * 120, 80]);
    expect(form({ key_samples, key_presses: 12, time_to_submit_ms: 5000 })).toContain('timing_regular');
  });

  it('ignores malformed samples', () => {
    expect(() => form({ mouse: [[1, 'a', 3], null, [2]], time_to_submit_ms: 'x' })).not.toThrow();
  });
});

type Pt = { x: number; y: number };
const r1 = (v: number) => Math.round(v * 10) / 10;

/**
 * What the SDK records of a script moving the pointer along cubic Bezier curves with random control
 * points, evenly spaced in the curve parameter, with random sleeps (8–35 ms) between moves: the
 * 16 ms throttle keeps a move only when 16 ms have passed since the last kept one.
 */
function bezierForm(seed: number, targets: Pt[], pauseMs: number) {
  const rand = mulberry32(seed);
  const mouse: number[][] = [];
  let moves = 0;
  let t = 800;
  let at: Pt = { x: 40, y: 30 };
  for (const to of targets) {
    const dx = to.x - at.x;
    const dy = to.y - at.y;
    const len = Math.hypot(dx, dy);
    const bend = () => (rand() - 0.5) * 0.7 * len;
    const c1 = { x: at.x + dx * 0.3 - (dy / len) * bend(), y: at.y + dy * 0.3 + (dx / len) * bend() };
    const c2 = { x: at.x + dx * 0.7 - (dy / len) * bend(), y: at.y + dy * 0.7 + (dx / len) * bend() };
    const steps = 15 + Math.floor(rand() * 25);
    for (let i = 1; i <= steps; i++) {
      t += 8 + rand() * 27;
      const u = i / steps;
      const [a, b, c, d] = [(1 - u) ** 3, 3 * (1 - u) ** 2 * u, 3 * (1 - u) * u ** 2, u ** 3];
      const x = a * at.x + b * c1.x + c * c2.x + d * to.x;
      const y = a * at.y + b * c1.y + c * c2.y + d * to.y;
      moves++;
      const last = mouse[mouse.length - 1];
      if (!last || t - last[0]! >= 16) mouse.push([r1(t), r1(x), r1(y)]);
    }
    at = to;
    t += pauseMs;
  }
  return { mouse, mouse_moves: moves };
}

/** Click targets spread over a page (fields, a checkbox, the submit button). */
const TARGETS: Pt[] = [
  { x: 820, y: 310 },
  { x: 420, y: 520 },
  { x: 900, y: 700 },
  { x: 560, y: 260 },
  { x: 1010, y: 610 },
];

describe('smooth synthetic mouse paths', () => {
  const rulesOf = (evidence: unknown, overrides = {}) =>
    behavior
      .evaluate(
        baseFeatures({
          surface: 'browser',
          event_type: 'signup',
          behavior: behaviorMetrics(evidence),
          ...overrides,
        }),
      )
      .map((s) => s.rule);

  it('flags Bezier strokes with random sleeps (a form filled by a "humanised" script)', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      // Typing between fields: each move is its own stroke.
      const form = bezierForm(seed, TARGETS, 1500);
      const rules = rulesOf({
        ...form,
        key_samples: humanKeys(seed, 24, 2000),
        key_presses: 24,
        clicks: 4,
        time_to_submit_ms: 9000,
      });
      expect(rules).toContain('mouse_smooth_curve');
      expect(rules).not.toContain('behavior_humanlike');
    }
  });

  it('flags one long chained Bezier stroke (a checkout clicked through without typing)', () => {
    const form = bezierForm(7, TARGETS, 40);
    const m = behaviorMetrics({ ...form, clicks: 4, time_to_submit_ms: 4000 });
    expect(m.curvature_strokes).toBe(1);
    expect(m.long_smooth_strokes).toBe(1);
    const f = baseFeatures({ surface: 'browser', event_type: 'checkout', behavior: m });
    expect(behavior.evaluate(f).map((s) => s.rule)).toContain('mouse_smooth_curve');
    expect(scriptedInput(f)).toBe(true);
  });

  it('leaves human strokes alone: DELBOT human paths wobble from move to move', () => {
    for (const file of traceFiles('circles_human_pc1').slice(0, 40)) {
      const m = behaviorMetrics({ mouse: loadTrace(file).mouse.slice(0, 600), time_to_submit_ms: 9000 });
      expect(m.smooth_strokes).toBe(0);
    }
  });

  it('gives no trust for a single short smooth stroke, without calling it a bot', () => {
    const smooth = bezierForm(4, [{ x: 300, y: 220 }], 0);
    const mouse = [...smooth.mouse, ...humanSession(4)];
    const m = behaviorMetrics({ mouse });
    expect(m.smooth_strokes).toBe(1);
    expect(m.long_smooth_strokes).toBe(0);
    expect(m.curvature_strokes).toBeGreaterThanOrEqual(3);
    const rules = rulesOf({
      mouse,
      mouse_moves: mouse.length,
      key_samples: humanKeys(3, 12, 2000),
      key_presses: 12,
      time_to_submit_ms: 30000,
    });
    expect(rules).not.toContain('mouse_smooth_curve');
    expect(rules).not.toContain('behavior_humanlike');
    // The same session without the smooth stroke is trusted.
    const human = humanSession(4);
    expect(
      rulesOf({
        mouse: human,
        mouse_moves: human.length,
        key_samples: humanKeys(3, 12, 2000),
        key_presses: 12,
        time_to_submit_ms: 30000,
      }),
    ).toContain('behavior_humanlike');
  });
});

describe('burst-dispatched pointer moves through the SDK throttle', () => {
  const rulesOf = (evidence: unknown) =>
    behavior
      .evaluate(
        baseFeatures({ surface: 'browser', event_type: 'login', behavior: behaviorMetrics(evidence) }),
      )
      .map((s) => s.rule);

  it('flags ghost-cursor style bursts: ~16 pointer moves per kept 16 ms sample', () => {
    // Four moves, each 40–60 CDP events about 1 ms apart: the SDK keeps one per 16 ms.
    const rand = mulberry32(21);
    const mouse: number[][] = [];
    let moves = 0;
    let t = 600;
    for (let m = 0; m < 4; m++) {
      const n = 40 + Math.floor(rand() * 20);
      for (let i = 0; i < n; i++) {
        t += 0.3 + rand() * 1.2;
        moves++;
        const last = mouse[mouse.length - 1];
        if (!last || t - last[0]! >= 16)
          mouse.push([r1(t), r1(200 + m * 150 + i * 9), r1(300 + i * 4 + rand())]);
      }
      t += 1200;
    }
    const rules = rulesOf({
      mouse,
      mouse_moves: moves,
      clicks: 4,
      key_samples: humanKeys(1, 12, 1000),
      key_presses: 12,
      time_to_submit_ms: 7000,
    });
    expect(rules).toContain('timing_regular');
    expect(rules).not.toContain('behavior_humanlike');
  });

  it('does not flag a hand on a fast display (a few moves per sample)', () => {
    const { mouse } = loadTrace(traceFiles('circles_human_pc1')[0]!);
    const sampled = mouse.slice(0, 150);
    const rules = rulesOf({ mouse: sampled, mouse_moves: sampled.length * 4, time_to_submit_ms: 9000 });
    expect(rules).not.toContain('timing_regular');
    expect(rules).toContain('behavior_humanlike');
  });

  it('does not read a decimated buffer as a burst', () => {
    // A long session: the SDK's buffer filled up and dropped every other old sample.
    const mouse = humanSession(6).slice(0, 256);
    expect(mouse.length).toBe(256);
    expect(behaviorMetrics({ mouse, mouse_moves: 5000 }).moves_per_sample).toBeNull();
  });
});

describe('behaviour trust and shared mailboxes', () => {
  it('withholds behavior_humanlike when another account already uses the mailbox', () => {
    const { mouse, clicks } = loadTrace(traceFiles('circles_human_pc1')[0]!);
    const evidence = { mouse: mouse.slice(0, 400), mouse_moves: 400, clicks, time_to_submit_ms: 9000 };
    const run = (accounts: number) =>
      behavior
        .evaluate(
          baseFeatures(
            { surface: 'browser', event_type: 'promo_claim', behavior: behaviorMetrics(evidence) },
            { accounts_per_email_24h: accounts },
          ),
        )
        .map((s) => s.rule);
    expect(run(1)).toContain('behavior_humanlike');
    expect(run(2)).not.toContain('behavior_humanlike');
  });
});
