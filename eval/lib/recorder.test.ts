import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../../packages/server/src/scoring/behavior-metrics.ts';
import { input } from '../../packages/server/src/scoring/signals/input.ts';
import { baseFeatures } from '../../packages/server/src/scoring/test-fixtures.ts';
import { botForm } from './bot-input.ts';
import { humanDesktop } from './devices.ts';
import { humanDesktopForm } from './human.ts';
import { pickLocale } from './locales.ts';
import { BrowserPage } from './page.ts';
import { Rng } from './rng.ts';
import { loadTraceLibrary } from './traces.ts';

/**
 * The eval's model of the SDK sends the form and input evidence the engine's input tells read
 * (`form`, `first_input_ms`, `centred_clicks`, `presses`), so `npm run eval` exercises them.
 */
const traces = loadTraceLibrary();

function page(seed: number) {
  const rng = new Rng(seed);
  return { rng, page: new BrowserPage(humanDesktop(rng, pickLocale(rng)), '198.51.100.7', 0, rng) };
}

const inputRules = (evidence: object) =>
  input
    .evaluate(baseFeatures({ surface: 'browser', event_type: 'login', behavior: behaviorMetrics(evidence) }))
    .map((s) => s.rule);

describe('eval recorder: form and input evidence', () => {
  it('a person typing: typed fields, held presses, first input before submit; no input tell', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { rng, page: p } = page(seed);
      const t = humanDesktopForm(p, rng, traces.human, { typing: [18, 11] });
      const b = p.rec.snapshot(t);
      expect(b.form).toEqual({
        fields: 2,
        untyped: 0,
        autofilled: 0,
        keys: 29,
        pastes: 0,
        inputs: 29,
        compositions: 0,
      });
      expect(b.presses?.count).toBe(3);
      expect(b.presses?.quick).toBe(0);
      expect(b.first_input_ms).toBeLessThan(b.time_to_submit_ms!);
      expect(b.centred_clicks).toBe(0);
      expect(inputRules(b)).toEqual([]);
    }
  });

  it("a person's moves (DELBOT strokes placed on the form): pointer_steps far under mouse_sparse_updates", () => {
    let worstShare = 0;
    let worstSparse = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const { rng, page: p } = page(seed);
      const t = humanDesktopForm(p, rng, traces.human, { typing: [18, 11] });
      const steps = p.rec.snapshot(t).pointer_steps;
      expect(steps?.moving).toBeGreaterThan(10);
      worstSparse = Math.max(worstSparse, steps?.sparse ?? 0);
      worstShare = Math.max(worstShare, (steps?.sparse ?? 0) / (steps?.moving ?? 1));
    }
    // The signal needs 10 and 15 % (BEHAVIOR.sparseSteps, sparseShare); 300 pages: at most 2, 1.4 %.
    expect(worstSparse).toBeLessThanOrEqual(3);
    expect(worstShare).toBeLessThan(0.03);
  });

  it('a password manager: autofilled fields, never "untyped"', () => {
    const { rng, page: p } = page(3);
    const t = humanDesktopForm(p, rng, traces.human, { typing: [0, 0], autofilled: true });
    expect(p.rec.snapshot(t).form).toMatchObject({ fields: 2, autofilled: 2, untyped: 0, keys: 0 });
  });

  it('page.fill() with page.click(): untyped fields, centred quick presses; the input tells fire', () => {
    const { rng, page: p } = page(5);
    const t = botForm(p, rng, traces.human, {
      typing: [18, 11],
      mouse: 'teleport',
      keys: 'fill',
      startDelay: 600,
    });
    const b = p.rec.snapshot(t);
    expect(b.form).toMatchObject({ fields: 2, untyped: 2, keys: 0 });
    expect(b.centred_clicks).toBe(3);
    expect(b.presses).toMatchObject({ count: 3, quick: 3 });
    expect(inputRules(b)).toEqual(expect.arrayContaining(['text_without_typing', 'click_exact_position']));
  });
});
