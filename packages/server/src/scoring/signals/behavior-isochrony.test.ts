import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { readMousePath, strokeStats } from '../mouse-path.ts';
import { baseFeatures, humanKeys, loadTrace, traceFiles } from '../test-fixtures.ts';
import { BEHAVIOR, behavior, scriptedInput, speedIgnoresDistance } from './behavior.ts';

type Sample = [number, number, number];

/**
 * Pointer moves recorded in real chromium on Xvfb by the benchmark's probe (`npm run
 * eval:browsers -- --json`), thinned as the SDK sends them (one move per 16 ms, 0.1 px): the
 * xdotool setups driven by the npm `windmouse` package, `@extra/humanize`, ghost-cursor and the
 * NaturalMouseMotion-style generator, and the replayed person (person-pc1).
 */
const RECORDED = JSON.parse(
  readFileSync(new URL('./fixtures/xdotool-paths.json', import.meta.url), 'utf8'),
) as { sessions: Array<{ setup: string; run: number; mouse: Sample[] }> };

const signalRules = (mouse: Sample[]) => {
  const f = baseFeatures({
    surface: 'browser',
    behavior: behaviorMetrics({
      mouse,
      mouse_moves: mouse.length,
      key_samples: humanKeys(3, 40, 4000),
      key_presses: 40,
      time_to_submit_ms: 20000,
    }),
  });
  return { f, rules: behavior.evaluate(f).map((s) => s.rule) };
};

/** One page: the traces one after another, 5 s apart (as humanSession joins them). */
const session = (traces: Sample[][]): Sample[] => {
  const out: Sample[] = [];
  traces.forEach((m, k) => {
    for (const [t, x, y] of m) out.push([t + 5000 * (k + 1), x, y]);
  });
  return out;
};

/** What another device or person would deliver from the same movement. */
const TRANSFORMS: Record<string, (m: Sample[]) => Sample[]> = {
  'as recorded': (m) => m,
  'twice as fast': (m) => m.map(([t, x, y]) => [t * 0.5, x, y]),
  'twice as slow': (m) => m.map(([t, x, y]) => [t * 2, x, y]),
  'resampled at 60 Hz': (m) => resample(m, 60),
  'resampled at 30 Hz (remote desktop)': (m) => resample(m, 30),
  'half the pixels (touchpad)': (m) => m.map(([t, x, y]) => [t, Math.round(x * 0.5), Math.round(y * 0.5)]),
  'twice the pixels (high DPI)': (m) => m.map(([t, x, y]) => [t, x * 2, y * 2]),
};

/** The position at each tick of `hz` (the last move before it), when it changed. */
function resample(m: Sample[], hz: number): Sample[] {
  const out: Sample[] = [];
  if (m.length === 0) return out;
  const dt = 1000 / hz;
  let j = 0;
  for (let t = m[0]![0]; t <= m[m.length - 1]![0] + dt; t += dt) {
    while (j + 1 < m.length && m[j + 1]![0] <= t) j++;
    const [, x, y] = m[j]!;
    const last = out[out.length - 1];
    if (!last || last[1] !== x || last[2] !== y) out.push([t, x, y]);
  }
  return out;
}

describe('a long stroke no faster than a short one (mouse_speed_ignores_distance)', () => {
  it('measures the peak speed over 80 ms windows of the shortest and the longest directed stroke', () => {
    // 104 px at 0.5 px/ms, a pause, then 520 px at 2.5 px/ms: both straight, one sample per 16 ms.
    const line = (t0: number, steps: number, speed: number): Sample[] =>
      Array.from({ length: steps + 1 }, (_, i) => [t0 + 16 * i, 100 + speed * 16 * i, 300]);
    const mouse = [...line(0, 13, 0.5), ...line(2000, 13, 2.5)];
    const stats = strokeStats(readMousePath(mouse));
    expect(stats.directed).toBe(2);
    expect(stats.shortLength).toBeCloseTo(104, 6);
    expect(stats.shortPeak).toBeCloseTo(0.5, 6);
    expect(stats.longLength).toBeCloseTo(520, 6);
    expect(stats.longPeak).toBeCloseTo(2.5, 6);
    const b = behaviorMetrics({ mouse });
    expect(b.stroke_length_ratio).toBeCloseTo(5, 6);
    expect(b.stroke_peak_ratio).toBeCloseTo(5, 6);
  });

  it('takes the fastest 80 ms, not the fastest pair of samples: one late event makes no peak', () => {
    // Steady 1 px/ms in 16 px steps; step 10 arrives 12 ms late, so the next pair reads 4 px/ms.
    const mouse: Sample[] = [];
    for (let i = 0; i <= 20; i++) mouse.push([16 * i + (i === 10 ? 12 : 0), 100 + 16 * i, 300]);
    expect((mouse[11]![1] - mouse[10]![1]) / (mouse[11]![0] - mouse[10]![0])).toBe(4);
    const stats = strokeStats(readMousePath(mouse));
    expect(stats.shortPeak).toBeGreaterThanOrEqual(1);
    expect(stats.shortPeak).toBeLessThan(1.25);
  });

  it('flags the WindMouse logins recorded in real chromium: 5 of 6 (a 5–7× longer stroke at 0.91–1.08× the peak speed; the sixth 1.27×)', () => {
    const windmouse = RECORDED.sessions.filter((s) => s.setup === 'xdotool-windmouse');
    expect(windmouse).toHaveLength(6);
    let flagged = 0;
    for (const s of windmouse) {
      const { f, rules } = signalRules(s.mouse);
      if (!rules.includes('mouse_speed_ignores_distance')) continue;
      flagged++;
      expect(rules).not.toContain('behavior_humanlike');
      expect(scriptedInput(f)).toBe(true);
    }
    expect(flagged).toBe(5);
  });

  it('leaves the replayed person in real chromium alone (a 3.3× longer stroke, 3.3–4.2× the peak speed)', () => {
    const people = RECORDED.sessions.filter((s) => s.setup === 'person-pc1');
    expect(people).toHaveLength(3);
    for (const s of people) {
      const { rules } = signalRules(s.mouse);
      expect(rules, `run ${s.run}`).not.toContain('mouse_speed_ignores_distance');
      expect(rules, `run ${s.run}`).toContain('behavior_humanlike');
    }
  });

  it('does not claim the other generators: their speed grows with distance (ghost-cursor, NaturalMouseMotion-style)', () => {
    for (const setup of ['xdotool-ghost', 'xdotool-nmm']) {
      for (const s of RECORDED.sessions.filter((r) => r.setup === setup)) {
        const b = behaviorMetrics({ mouse: s.mouse });
        expect(b.stroke_peak_ratio, `${setup} ${s.run}`).toBeGreaterThan(1.3);
      }
    }
  });

  it('never fires on the 187 DELBOT people, alone or 2–6 traces to a page, nor as other devices would deliver them', () => {
    const traces = traceFiles('circles_human_pc1').map((file) => loadTrace(file).mouse as Sample[]);
    expect(traces).toHaveLength(187);
    for (const [name, transform] of Object.entries(TRANSFORMS)) {
      let pages = 0;
      for (let k = 1; k <= 6; k++)
        for (let i = 0; i + k <= traces.length; i++) {
          const f = baseFeatures({
            behavior: behaviorMetrics({ mouse: session(traces.slice(i, i + k).map(transform)) }),
          });
          expect(speedIgnoresDistance(f), `${name}: traces ${i}–${i + k - 1}`).toBe(false);
          pages++;
        }
      expect(pages).toBe(1107);
    }
  });

  it('needs the long stroke 4× the short one: a generator at one speed over similar distances is not judged', () => {
    const line = (t0: number, length: number): Sample[] =>
      Array.from({ length: Math.round(length / 16) + 1 }, (_, i) => [t0 + 16 * i, 100 + 16 * i, 300]);
    const b = behaviorMetrics({ mouse: [...line(0, 200), ...line(3000, 600)] });
    expect(b.stroke_length_ratio).toBeLessThan(BEHAVIOR.isochronyLengthRatio);
    expect(speedIgnoresDistance(baseFeatures({ behavior: b }))).toBe(false);
  });
});
