import { readFileSync } from 'node:fs';
import { path } from 'ghost-cursor';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../testing/rng.ts';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { keyRhythmSpread } from '../input-metrics.ts';
import { baseFeatures, traceFiles } from '../test-fixtures.ts';
import { behavior } from './behavior.ts';
import { input } from './input.ts';

type Sample = number[];

/** Seeded, so every run draws the same "people" and "bots". */
const rng = mulberry32;

const r1 = (v: number) => Math.round(v * 10) / 10;

/**
 * A session of recorded human pointer movement (DELBOT circles_human_pc1): consecutive traces of
 * one person, each moving to a circle and clicking it (the `Released` where the movement ends),
 * through the SDK's 16 ms throttle and 0.1 px rounding. Clicks are [t, x, y, 0].
 */
function humanSession(files: readonly string[]): { mouse: Sample[]; clicks: Sample[]; end: number } {
  const mouse: Sample[] = [];
  const clicks: Sample[] = [];
  let offset = 0;
  for (const file of files) {
    const rows = readFileSync(file, 'utf8').trim().split('\n').slice(1);
    const t0 = Number(rows[0]!.split(',')[0]);
    let last = Number.NEGATIVE_INFINITY;
    let x = Number.NaN;
    let y = Number.NaN;
    let end = 0;
    for (const row of rows) {
      const [tRaw, kind, xRaw, yRaw] = row.split(',');
      const t = Number(tRaw) - t0 + offset;
      end = t;
      if (kind === 'Move') {
        x = Number(xRaw);
        y = Number(yRaw);
        if (t - last >= 16) {
          mouse.push([r1(t), x, y]);
          last = t;
        }
      } else if (kind === 'Released' && Math.hypot(Number(xRaw) - x, Number(yRaw) - y) <= 3) {
        // Pressed ~100 ms before release: the SDK records pointerdown.
        clicks.push([r1(t - 100), x, y, 0]);
      }
    }
    offset = end + 1500;
  }
  return { mouse, clicks, end: offset };
}

/** A person's key-down times: log-normal gaps (σ 0.3–0.5) with pauses between fields. */
function humanKeys(random: () => number, n: number, t0: number): Sample[] {
  const sigma = 0.3 + random() * 0.2;
  const median = 140 + random() * 120;
  const keys: Sample[] = [];
  let t = t0;
  for (let i = 0; i < n; i++) {
    const u = Math.max(1e-9, random());
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
    t += median * Math.exp(sigma * z) + (i > 0 && i % 9 === 0 ? 800 + random() * 1500 : 0);
    keys.push([r1(t), r1(60 + random() * 70)]);
  }
  return keys;
}

function features(evidence: Record<string, unknown>, over: Record<string, unknown> = {}) {
  return baseFeatures({
    surface: 'browser',
    event_type: 'login',
    behavior: behaviorMetrics({ v: 1, ...evidence }),
    ...over,
  });
}

const rulesOf = (f: ReturnType<typeof features>) => [
  ...input.evaluate(f).map((s) => s.rule),
  ...behavior.evaluate(f).map((s) => s.rule),
];

const NEW_TELLS = [
  'click_teleport',
  'click_exact_position',
  'key_rhythm_uniform',
  'text_without_typing',
  'form_filled_fast',
];

const HUMAN_FILES = traceFiles('circles_human_pc1');

describe.skipIf(HUMAN_FILES.length === 0)('input tells: recorded people do not trip them', () => {
  it('no new tell on any session of recorded human movement, typed text and form timing', () => {
    const random = rng(14);
    let sessions = 0;
    for (let i = 0; i + 4 <= HUMAN_FILES.length; i += 4) {
      const { mouse, clicks, end } = humanSession(HUMAN_FILES.slice(i, i + 4));
      const keys = humanKeys(random, 24, mouse[0]![0]! + 300);
      const submit = Math.max(end, keys[keys.length - 1]![0]! + 400);
      const f = features({
        time_to_submit_ms: submit + 2000,
        first_input_ms: Math.min(mouse[0]![0]!, keys[0]![0]!) + 2000,
        mouse: mouse.map(([t, x, y]) => [t! + 2000, x, y]),
        mouse_moves: mouse.length,
        click_samples: clicks.map(([t, x, y, b]) => [t! + 2000, x, y, b]),
        clicks: clicks.length,
        key_samples: keys.map(([t, d]) => [t! + 2000, d]),
        key_presses: keys.length,
        centred_clicks: 0,
        form: { fields: 2, untyped: 0, autofilled: 0, keys: 24, pastes: 0, inputs: 24, compositions: 0 },
      });
      const fired = rulesOf(f).filter((r) => NEW_TELLS.includes(r));
      expect(fired, `session ${i}`).toEqual([]);
      sessions++;
    }
    expect(sessions).toBeGreaterThan(40);
  });

  it('people pace keys with a spread of 0.15–0.3 of the median gap; a fixed delay measures < 0.04', () => {
    const random = rng(7);
    const people: number[] = [];
    for (let i = 0; i < 1000; i++) people.push(keyRhythmSpread(humanKeys(random, 20 + (i % 30), 0))!);
    people.sort((a, b) => a - b);
    expect(people[0]).toBeGreaterThan(0.05);
    expect(people[500]).toBeGreaterThan(0.15);
    // Under 20 keys the estimate is too noisy to judge.
    expect(keyRhythmSpread(humanKeys(random, 19, 0))).toBeNull();
    // xdotool/`type({delay})` at 60–200 ms with scheduler noise and a loaded machine's stray spikes.
    for (let i = 0; i < 200; i++) {
      const delay = 60 + random() * 140;
      let t = 0;
      const keys: Sample[] = [];
      for (let k = 0; k < 24; k++) {
        t += delay + (random() - 0.5) * 4 + (random() < 0.15 ? random() * 60 : 0);
        keys.push([r1(t), 20]);
      }
      expect(keyRhythmSpread(keys)).toBeLessThan(0.04);
    }
  });
});

describe('input tells: generated bot evidence trips them', () => {
  const random = rng(3);
  const human = HUMAN_FILES.length > 0 ? humanSession(HUMAN_FILES.slice(0, 4)) : { mouse: [], clicks: [] };

  it('text_without_typing: Playwright fill (trusted insertText, no key, paste or IME event)', () => {
    const fill = { fields: 2, untyped: 2, autofilled: 0, keys: 0, pastes: 0, inputs: 2, compositions: 0 };
    expect(rulesOf(features({ time_to_submit_ms: 9000, form: fill }))).toContain('text_without_typing');
    // A password manager's fill (autofill or an extension's untrusted events) is not the tell.
    const autofill = { ...fill, untyped: 0, autofilled: 2 };
    expect(rulesOf(features({ time_to_submit_ms: 9000, form: autofill }))).not.toContain(
      'text_without_typing',
    );
  });

  it('click_teleport: the pointer jumps to each field and button (xdotool mousemove + click)', () => {
    // Some movement on the page (a human-like wiggle), then three jumps straight onto targets.
    const mouse: Sample[] = human.mouse.slice(0, 60).map((m) => [...m]);
    const clicks: Sample[] = [];
    let t = (mouse[mouse.length - 1]?.[0] ?? 0) + 2000;
    for (const [x, y] of [
      [640, 300],
      [640, 360],
      [700, 430],
    ]) {
      mouse.push([t, x!, y!]);
      clicks.push([t + 30, x!, y!, 0]);
      t += 1500 + random() * 500;
    }
    const f = features({ mouse, mouse_moves: mouse.length, click_samples: clicks, clicks: clicks.length });
    const rules = rulesOf(f);
    expect(rules).toContain('click_teleport');
    expect(rules).not.toContain('click_without_movement');
  });

  it('click_exact_position: clicks at element centres, or back at stored coordinates', () => {
    expect(rulesOf(features({ clicks: 3, mouse_moves: 200, centred_clicks: 3 }))).toContain(
      'click_exact_position',
    );
    // Moves between two targets along a path, clicking each one at the same pixel every time.
    const mouse: Sample[] = [];
    const clicks: Sample[] = [];
    let t = 0;
    for (let round = 0; round < 3; round++) {
      for (const [x, y] of [
        [300, 200],
        [500, 420],
      ]) {
        for (let i = 0; i < 20; i++) {
          t += 16;
          mouse.push([t, x! - 100 + i * 5, y! - 60 + i * 3]);
        }
        mouse.push([t + 16, x!, y!]);
        clicks.push([t + 56, x!, y!, 0]);
        t += 1256;
      }
    }
    const f = features({ mouse, mouse_moves: mouse.length, click_samples: clicks, clicks: clicks.length });
    expect(f.behavior.click_repeats).toBe(4);
    expect(rulesOf(f)).toContain('click_exact_position');
  });

  it('key_rhythm_uniform: keys at a fixed delay, where timing_regular (CV) misses under load', () => {
    let t = 1000;
    const keys: Sample[] = [];
    for (let k = 0; k < 24; k++) {
      // 100 ms ± 1 ms, and every fifth key delayed 80–150 ms by a busy machine.
      t += 100 + (random() - 0.5) * 2 + (k % 5 === 4 ? 80 + random() * 70 : 0);
      keys.push([r1(t), r1(40 + random() * 40)]);
    }
    const f = features({ key_samples: keys, key_presses: keys.length, mouse_moves: 40 });
    expect(f.behavior.key_gap_cv).toBeGreaterThan(0.08);
    const rules = rulesOf(f);
    expect(rules).toContain('key_rhythm_uniform');
    expect(rules).not.toContain('timing_regular');
  });

  it('form_filled_fast: text in the form and a submit within a second of the first input', () => {
    const form = { fields: 2, untyped: 0, autofilled: 0, keys: 20, pastes: 0, inputs: 20, compositions: 0 };
    const fast = features({ time_to_submit_ms: 6000, first_input_ms: 5300, key_presses: 20, form });
    expect(rulesOf(fast)).toContain('form_filled_fast');
    // Within 1.5 s of load it is fast_submit alone (one tell, not two).
    const early = features({ time_to_submit_ms: 1200, first_input_ms: 500, key_presses: 20, form });
    expect(rulesOf(early)).toContain('fast_submit');
    expect(rulesOf(early)).not.toContain('form_filled_fast');
    // Autofilled and submitted: a password manager, not a tell.
    const autofill = features({
      time_to_submit_ms: 6000,
      first_input_ms: 5500,
      form: { ...form, autofilled: 2, keys: 0 },
    });
    expect(rulesOf(autofill)).not.toContain('form_filled_fast');
  });

  it('the page.fill setup of issue 14 (0 keys, 1 pointer sample, 1 s) is well past review at /collect', () => {
    const f = features({
      time_to_submit_ms: 5200,
      first_input_ms: 5000,
      mouse: [[5000, 640.5, 420.5]],
      mouse_moves: 1,
      click_samples: [[5010, 640.5, 420.5, 0]],
      clicks: 1,
      centred_clicks: 1,
      form: { fields: 2, untyped: 2, autofilled: 0, keys: 0, pastes: 0, inputs: 2, compositions: 0 },
    });
    const signals = [...input.evaluate(f), ...behavior.evaluate(f)];
    expect(signals.map((s) => s.rule)).toEqual(
      expect.arrayContaining(
        ['text_without_typing', 'form_filled_fast', 'behavior_bot_combined'].slice(0, 2),
      ),
    );
    expect(signals.reduce((n, s) => n + s.score, 0)).toBeGreaterThanOrEqual(55);
  });
});

/**
 * ghost-cursor (npm) as the adversary: its own `path(from, box)` (Bezier curves with Fitts's-law
 * step counts; its cursor adds overshoot) replayed as OS-level moves at whole pixels, timed three
 * ways: even steps (xdotool with a sleep), its `useTimestamps` times, and CDP speed.
 */
function ghostSession(
  random: () => number,
  timing: 'even' | 'timestamps' | 'cdp',
): { mouse: Sample[]; clicks: Sample[]; moves: number } {
  const original = Math.random;
  Math.random = random;
  try {
    const raw: Sample[] = [];
    const clicks: Sample[] = [];
    let at = { x: 100 + random() * 600, y: 80 + random() * 400 };
    let t = 1000;
    const fields = [
      [420, 310],
      [430, 372],
      [460, 452],
      [300, 220],
      [520, 520],
    ];
    for (const [x, y] of fields) {
      const box = { x: x! - 90, y: y! - 14, width: 180, height: 28 };
      const far = Math.hypot(x! - at.x, y! - at.y) > 250;
      // Its cursor overshoots distant targets, then corrects with a tight curve.
      const legs = far ? [{ x: x! + (random() - 0.5) * 160, y: y! + (random() - 0.5) * 160 }, box] : [box];
      for (const leg of legs) {
        const points = path(at, leg, timing === 'timestamps' ? { useTimestamps: true } : undefined) as Array<{
          x: number;
          y: number;
          timestamp?: number;
        }>;
        const t0 = points[0]!.timestamp ?? 0;
        points.forEach((p, i) => {
          const step = timing === 'cdp' ? 3 : 8 + random() * 8;
          raw.push([
            t + (timing === 'timestamps' ? p.timestamp! - t0 : i * step),
            Math.round(p.x),
            Math.round(p.y),
          ]);
        });
        const last = raw[raw.length - 1]!;
        at = { x: last[1]!, y: last[2]! };
        t = last[0]! + 5;
      }
      const last = raw[raw.length - 1]!;
      clicks.push([last[0]! + 40 + random() * 60, last[1]!, last[2]!, 0]);
      t = last[0]! + 600 + random() * 1500;
    }
    // Through the SDK's 16 ms throttle.
    const mouse: Sample[] = [];
    for (const p of raw) if (mouse.length === 0 || p[0]! - mouse[mouse.length - 1]![0]! >= 16) mouse.push(p);
    return { mouse, clicks, moves: raw.length };
  } finally {
    Math.random = original;
  }
}

describe('human-like mouse libraries: ghost-cursor paths', () => {
  const evidenceOf = (s: { mouse: Sample[]; clicks: Sample[]; moves: number }) =>
    features({
      time_to_submit_ms: 30_000,
      mouse: s.mouse,
      mouse_moves: s.moves,
      click_samples: s.clicks,
      clicks: s.clicks.length,
    });
  const caught = (timing: 'even' | 'timestamps' | 'cdp', rule: string) => {
    const random = rng(21);
    let n = 0;
    for (let i = 0; i < 30; i++) if (rulesOf(evidenceOf(ghostSession(random, timing))).includes(rule)) n++;
    return n;
  };

  it('its own timestamps move at one speed along the curve: mouse_constant_speed', () => {
    expect(caught('timestamps', 'mouse_constant_speed')).toBeGreaterThanOrEqual(27);
    if (process.env.GHOST_REPORT)
      for (const t of ['even', 'timestamps', 'cdp'] as const)
        for (const r of [
          'behavior_humanlike',
          'mouse_constant_speed',
          'mouse_smooth_curve',
          'behavior_bot_combined',
        ])
          console.log(`ghost ${t} ${r} ${caught(t, r)}/30`);
  });
});
