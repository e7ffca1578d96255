import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures } from '../test-fixtures.ts';
import type { Os } from '../ua-consistency.ts';
import { behavior } from './behavior.ts';
import { input } from './input.ts';

const LINUX_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

function features(grid: Record<string, unknown> | undefined, over: Record<string, unknown> = {}) {
  return baseFeatures({
    surface: 'browser',
    event_type: 'login',
    behavior: behaviorMetrics({ v: 1, mouse_moves: 140, clicks: 3, ...(grid ? { pointer_grid: grid } : {}) }),
    ...over,
  });
}
const on = (os: Os, over: Record<string, unknown> = {}) => ({
  ua_os: os,
  ...(os === 'linux' ? { user_agent: LINUX_CHROME } : {}),
  ...over,
});

const fired = (f: ReturnType<typeof features>) => [
  ...input.evaluate(f).map((s) => s.rule),
  ...behavior.evaluate(f).map((s) => s.rule),
];

/** What the SDK sent in `npm run eval:browsers` (chromium 156, Xvfb, ratio 1, 2026-11-26): patchright-headful-ghost #0, xdotool-ghost #0. */
const CDP_GHOST = { judged: 142, fractional: 141, off_fixed: 140, dpr: 1 };
const XDOTOOL = { judged: 138, fractional: 0, off_fixed: 0, dpr: 1 };

describe('pointer_subpixel', () => {
  it('CDP ghost-cursor positions between pixels, on Windows (any ratio) and on Linux at ratio 1', () => {
    for (const f of [
      features(CDP_GHOST, on('windows')),
      features({ ...CDP_GHOST, dpr: 1.25 }, on('windows')),
      features(CDP_GHOST, on('linux')),
    ]) {
      const signals = input.evaluate(f);
      const s = signals.find((x) => x.rule === 'pointer_subpixel');
      expect(s?.score).toBe(35);
      expect(s?.description).toMatch(/14[01] of 142 mouse moves/);
      // Machine-made input earns no trust.
      expect(behavior.evaluate(f).map((x) => x.rule)).not.toContain('behavior_humanlike');
    }
  });

  it('OS input on the grid: xdotool, a Windows mouse at 125 %, Wayland 1/256 px steps', () => {
    expect(fired(features(XDOTOOL, on('windows')))).not.toContain('pointer_subpixel');
    expect(fired(features(XDOTOOL, on('linux')))).not.toContain('pointer_subpixel');
    expect(fired(features({ ...XDOTOOL, dpr: 1.25 }, on('windows')))).not.toContain('pointer_subpixel');
    // Wayland: fractional, but every position on the 1/256 px grid.
    expect(
      fired(features({ judged: 200, fractional: 190, off_fixed: 0, dpr: 1 }, on('linux'))),
    ).not.toContain('pointer_subpixel');
  });

  it('platforms whose people move between pixels are not judged: macOS, ChromeOS, Linux at other ratios', () => {
    for (const over of [on('mac'), on('chromeos'), on('linux'), on('other')]) {
      const grid = over.ua_os === 'linux' ? { ...CDP_GHOST, dpr: 2 } : CDP_GHOST;
      expect(fired(features(grid, over)), JSON.stringify(over)).not.toContain('pointer_subpixel');
    }
    // Wayland with fractional scaling at ratio 1.25: never judged on Linux.
    expect(fired(features({ ...CDP_GHOST, dpr: 1.25 }, on('linux')))).not.toContain('pointer_subpixel');
  });

  it('not judged on phones, touch input, non-Chromium browsers or a user agent its browser contradicts', () => {
    expect(fired(features(CDP_GHOST, on('windows', { ua_mobile: true })))).not.toContain('pointer_subpixel');
    expect(fired(features(CDP_GHOST, on('windows', { ua_chromium: false })))).not.toContain(
      'pointer_subpixel',
    );
    expect(fired(features(CDP_GHOST, on('windows', { ua_inconsistencies: ['platform'] })))).not.toContain(
      'pointer_subpixel',
    );
    const touched = features(CDP_GHOST, on('windows'));
    touched.behavior.touches = 3;
    expect(fired(touched)).not.toContain('pointer_subpixel');
  });

  it('needs 20 judged moves, half of them off the grid; older SDKs send nothing', () => {
    expect(
      fired(features({ judged: 19, fractional: 19, off_fixed: 19, dpr: 1 }, on('windows'))),
    ).not.toContain('pointer_subpixel');
    expect(
      fired(features({ judged: 100, fractional: 49, off_fixed: 49, dpr: 1 }, on('windows'))),
    ).not.toContain('pointer_subpixel');
    expect(fired(features({ judged: 100, fractional: 50, off_fixed: 50, dpr: 1 }, on('windows')))).toContain(
      'pointer_subpixel',
    );
    expect(fired(features(undefined, on('windows')))).not.toContain('pointer_subpixel');
    expect(fired(features({ judged: 100, fractional: 100 }, on('windows')))).not.toContain(
      'pointer_subpixel',
    );
  });
});
