import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures, humanPageFeatures, humanSession } from '../test-fixtures.ts';
import { behavior } from './behavior.ts';
import { scriptedInput } from './behavior-tells.ts';

describe('pointer moved in jumps (mouse_sparse_updates)', () => {
  /** A person's page (DELBOT human strokes, varied keys) with the SDK's `pointer_steps` summary. */
  const evaluate = (steps: unknown, over: Record<string, unknown> = {}) => {
    const f = humanPageFeatures({ pointer_steps: steps }, over);
    return { f, rules: behavior.evaluate(f).map((s) => s.rule) };
  };

  it('flags a page whose pointer jumped in single events 40+ ms apart (xdotool stepping ghost-cursor: 33–71 of 96–127)', () => {
    const { f, rules } = evaluate({ moving: 121, sparse: 58 });
    expect(rules).toContain('mouse_sparse_updates');
    expect(rules).not.toContain('behavior_humanlike');
    // Soft: a remote desktop may update the pointer this rarely, so it never makes input "scripted".
    expect(scriptedInput(f)).toBe(false);
  });

  it('leaves people alone: the replayed person in real chromium (≤ 8 of 188, 4 %) and DELBOT (≤ 2 per session)', () => {
    for (const steps of [
      { moving: 188, sparse: 8 },
      { moving: 382, sparse: 2 },
      { moving: 60, sparse: 9 }, // a short page with a few hiccups: under 10 steps
      { moving: 400, sparse: 40 }, // a long one: 10 %
    ]) {
      const { rules } = evaluate(steps);
      expect(rules).not.toContain('mouse_sparse_updates');
      expect(rules).toContain('behavior_humanlike');
    }
    // Older SDKs and browsers without getCoalescedEvents send nothing.
    expect(evaluate(undefined).rules).toContain('behavior_humanlike');
  });

  it('counts with another tell for behavior_bot_combined, and not on phones', () => {
    const steps = { moving: 57, sparse: 23 };
    const { rules } = evaluate(steps);
    expect(rules).toContain('mouse_sparse_updates');
    expect(evaluate(steps, { ua_mobile: true }).rules).not.toContain('mouse_sparse_updates');
    const mouse = humanSession(4);
    const pynput = behavior
      .evaluate(
        baseFeatures({
          surface: 'browser',
          behavior: behaviorMetrics({
            mouse,
            mouse_moves: mouse.length,
            presses: { count: 3, quick: 3, median_ms: 1 },
            pointer_steps: steps,
          }),
        }),
      )
      .map((s) => s.rule);
    expect(pynput).toEqual(expect.arrayContaining(['mouse_sparse_updates', 'behavior_bot_combined']));
  });
});
