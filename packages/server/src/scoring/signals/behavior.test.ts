import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures, loadTrace, traceFiles } from '../test-fixtures.ts';
import { behavior } from './behavior.ts';

const BOT_RULES = new Set([
  'mouse_straight_path',
  'mouse_synthetic_jitter',
  'mouse_stationary_moves',
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
