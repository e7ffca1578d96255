import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures, loadTrace, traceFiles } from '../test-fixtures.ts';
import { automation } from './automation.ts';
import { behavior } from './behavior.ts';
import { input } from './input.ts';

function features(evidence: Record<string, unknown>, over: Record<string, unknown> = {}) {
  return baseFeatures({
    surface: 'browser',
    event_type: 'login',
    behavior: behaviorMetrics({ v: 1, mouse_moves: 40, clicks: 3, ...evidence }),
    ...over,
  });
}

const fired = (f: ReturnType<typeof features>) => [
  ...input.evaluate(f).map((s) => s.rule),
  ...automation.evaluate(f).map((s) => s.rule),
];

/** What the SDK sends for these holds (PressTimer.summary in @warden/browser). */
function presses(holds: readonly number[]) {
  const sorted = [...holds].sort((a, b) => a - b);
  const n = sorted.length;
  const median = n % 2 === 1 ? sorted[n >> 1]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
  return { count: n, quick: sorted.filter((h) => h < 15).length, median_ms: median };
}

/** Pressed → Released durations, per trace file (DELBOT traces: time, event, x, y). */
function holdsOf(file: string): number[] {
  const holds: number[] = [];
  let down: number | undefined;
  for (const row of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
    const [t, kind] = row.split(',');
    if (kind === 'Pressed') down = Number(t);
    else if (kind === 'Released' && down !== undefined) {
      holds.push(Number(t) - down);
      down = undefined;
    }
  }
  return holds;
}

const HUMAN_FILES = traceFiles('circles_human_pc1');

describe('click_instant_release', () => {
  it.skipIf(HUMAN_FILES.length === 0)('recorded people (DELBOT circles_human_pc1) never trip it', () => {
    const all: number[] = [];
    let sessions = 0;
    for (let i = 0; i + 4 <= HUMAN_FILES.length; i += 4) {
      const holds = HUMAN_FILES.slice(i, i + 4).flatMap(holdsOf);
      all.push(...holds);
      if (holds.length < 2) continue;
      expect(fired(features({ presses: presses(holds) })), `session ${i}`).not.toContain(
        'click_instant_release',
      );
      sessions++;
    }
    expect(sessions).toBeGreaterThan(40);
    // The shortest recorded human press is 55.8 ms: far from a driver's 0–11 ms.
    expect(Math.min(...all)).toBeGreaterThan(50);
  });

  it('a driver pressing and releasing at once trips it (page.click, CDP kits: 0–11 ms; xdotool: 0–10 ms)', () => {
    for (const holds of [
      [0.4, 0.3, 0.5],
      [1.2, 11],
      [3, 7, 9, 120],
    ]) {
      expect(fired(features({ presses: presses(holds) })), holds.join()).toContain('click_instant_release');
    }
  });

  it('one press, or quick presses among mostly human ones, is not enough', () => {
    expect(fired(features({ presses: presses([2]) }))).not.toContain('click_instant_release');
    expect(fired(features({ presses: presses([2, 90, 110]) }))).not.toContain('click_instant_release');
    expect(fired(features({ presses: presses([2, 4, 90, 110]) }))).not.toContain('click_instant_release');
  });

  it('never on a touch device or a mobile user agent (taps are not timed as presses anyway)', () => {
    const quick = { presses: presses([1, 2, 3]) };
    expect(fired(features({ ...quick, touches: 4 }))).not.toContain('click_instant_release');
    expect(fired(features(quick, { ua_mobile: true }))).not.toContain('click_instant_release');
  });

  it('is soft: with open DevTools alone it never makes the input "scripted" (trackpad taps are instant too)', () => {
    const f = features({ presses: presses([0, 0, 1]) }, { cdp: true });
    const rules = fired(f);
    expect(rules).toContain('click_instant_release');
    expect(rules).toContain('automation_cdp');
    expect(rules).not.toContain('automation_cdp_scripted');
  });

  it('adds to another input tell (behavior_bot_combined) and earns no behavior_humanlike', () => {
    const withFill = features({
      presses: presses([1, 2]),
      form: { fields: 2, untyped: 2, autofilled: 0, keys: 0, pastes: 0, inputs: 2, compositions: 0 },
    });
    expect(behavior.evaluate(withFill).map((s) => s.rule)).toContain('behavior_bot_combined');
    const alone = features({ presses: presses([1, 2]) });
    expect(behavior.evaluate(alone).map((s) => s.rule)).not.toContain('behavior_bot_combined');
  });

  it.skipIf(HUMAN_FILES.length === 0)(
    'a human mouse path with instant presses earns no behavior_humanlike',
    () => {
      const trusted = HUMAN_FILES.filter((file) => {
        const { mouse, clicks } = loadTrace(file);
        const evidence = { mouse, mouse_moves: mouse.length, clicks, time_to_submit_ms: 9000 };
        const human = behavior.evaluate(features(evidence)).map((s) => s.rule);
        const quick = behavior
          .evaluate(features({ ...evidence, presses: presses([1, 2, 3]) }))
          .map((s) => s.rule);
        expect(quick).not.toContain('behavior_humanlike');
        return human.includes('behavior_humanlike');
      });
      expect(trusted.length).toBeGreaterThan(HUMAN_FILES.length / 2);
    },
  );

  it('ignores malformed press summaries', () => {
    expect(fired(features({ presses: { count: 'x', quick: 3 } }))).not.toContain('click_instant_release');
    expect(fired(features({ presses: { count: 2, quick: 9 } }))).toContain('click_instant_release');
  });
});

describe('pointer_geometry_mismatch', () => {
  const frame = (dx: number, dy: number, chromeX: number, chromeY: number, spread = 0, samples = 8) => ({
    pointer_frame: { samples, dx, dy, spread, chrome_x: chromeX, chrome_y: chromeY },
  });

  it('headless CDP input: events offset 87 px in a window without chrome', () => {
    expect(fired(features(frame(0, 87, 0, 0)))).toContain('pointer_geometry_mismatch');
    expect(fired(features(frame(120, 0, 0, 0)))).toContain('pointer_geometry_mismatch');
  });

  it('real windows agree with their chrome: windowed, headful driver, stealth (off by 2), fullscreen, kiosk', () => {
    for (const [dx, dy, cx, cy] of [
      [0, 87, 0, 87],
      [8, 110, 16, 118],
      [0, 87, 0, 85],
      [0, 0, 0, 0],
      [0, 30, 0, 0],
    ] as const) {
      expect(fired(features(frame(dx, dy, cx, cy))), `${dx},${dy},${cx},${cy}`).not.toContain(
        'pointer_geometry_mismatch',
      );
    }
  });

  it('zoom (offsets that move with the pointer), too few events, or a phone: no verdict', () => {
    expect(fired(features(frame(0, 87, 0, 0, 40)))).not.toContain('pointer_geometry_mismatch');
    expect(fired(features(frame(0, 87, 0, 0, 0, 1)))).not.toContain('pointer_geometry_mismatch');
    expect(fired(features(frame(0, 87, 0, 0), { ua_mobile: true }))).not.toContain(
      'pointer_geometry_mismatch',
    );
    expect(fired(features({ pointer_frame: { samples: 8, dy: 87 } }))).not.toContain(
      'pointer_geometry_mismatch',
    );
  });
});

describe('evidence recorded by `npm run eval:browsers` (chromium 156, one run each)', () => {
  const visits = {
    'playwright-headless-fill': {
      presses: { count: 1, quick: 1, median_ms: 0.1 },
      pointer_frame: { samples: 2, dx: 0, dy: 87, spread: 0, chrome_x: 0, chrome_y: 0 },
    },
    'patchright-headful-ghost': {
      presses: { count: 3, quick: 0, median_ms: 40.9 },
      pointer_frame: { samples: 8, dx: 0, dy: 87, spread: 0, chrome_x: 0, chrome_y: 87 },
    },
    'xdotool-straight': {
      presses: { count: 3, quick: 3, median_ms: 0 },
      pointer_frame: { samples: 8, dx: 0, dy: 143, spread: 0, chrome_x: 0, chrome_y: 143 },
    },
    'person-pc1': {
      presses: { count: 3, quick: 0, median_ms: 113 },
      pointer_frame: { samples: 8, dx: 0, dy: 143, spread: 0, chrome_x: 0, chrome_y: 143 },
    },
  };
  const rules = (name: keyof typeof visits) =>
    fired(features(visits[name])).filter(
      (r) => r === 'click_instant_release' || r === 'pointer_geometry_mismatch',
    );

  it('headless Playwright: geometry mismatch (one press is too few to time)', () => {
    expect(rules('playwright-headless-fill')).toEqual(['pointer_geometry_mismatch']);
  });
  it('xdotool clicks: instant release; its real window agrees with its events', () => {
    expect(rules('xdotool-straight')).toEqual(['click_instant_release']);
  });
  it('a replayed person and a headful driver holding its presses (ghost-cursor, 41 ms): neither', () => {
    expect(rules('person-pc1')).toEqual([]);
    expect(rules('patchright-headful-ghost')).toEqual([]);
  });
});
