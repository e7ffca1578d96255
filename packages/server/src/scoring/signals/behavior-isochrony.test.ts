import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { cruiseSpeed, readMousePath, STROKE_PAUSE_MS, strokeStats } from '../mouse-path.ts';
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
) as { sessions: Array<{ setup: string; run: number; batch: string; mouse: Sample[] }> };

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

/** As the SDK records moves: one at least 16 ms after the last kept, at 0.1 px. */
function thin(m: Sample[]): Sample[] {
  const out: Sample[] = [];
  for (const [t, x, y] of m) {
    const last = out[out.length - 1];
    if (!last || t - last[0] >= 16) out.push([t, Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
  }
  return out;
}

/** The strokes the engine judges (moves ≤ STROKE_PAUSE_MS apart, ≥ 8 samples, ≥ 100 px): length and cruise speed. */
function judgedStrokes(m: Sample[]): Array<{ length: number; cruise: number }> {
  const path = readMousePath(m);
  const out: Array<{ length: number; cruise: number }> = [];
  let start = 0;
  for (let i = 1; i <= path.n; i++) {
    if (i < path.n && path.t[i]! - path.t[i - 1]! <= STROKE_PAUSE_MS) continue;
    let length = 0;
    for (let k = start + 1; k < i; k++) length += path.len[k]!;
    if (i - start >= 8 && length >= 100) out.push({ length, cruise: cruiseSpeed(path, start, i, length) });
    start = i;
  }
  return out;
}

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
  it('measures the cruise speed (middle half of the path over its time) of the shortest and the longest directed stroke', () => {
    // 104 px at 0.5 px/ms, a pause, then 520 px at 2.5 px/ms: both straight, one sample per 16 ms.
    const line = (t0: number, steps: number, speed: number): Sample[] =>
      Array.from({ length: steps + 1 }, (_, i) => [t0 + 16 * i, 100 + speed * 16 * i, 300]);
    const mouse = [...line(0, 13, 0.5), ...line(2000, 13, 2.5)];
    const stats = strokeStats(readMousePath(mouse));
    expect(stats.directed).toBe(2);
    expect(stats.shortLength).toBeCloseTo(104, 6);
    expect(stats.shortCruise).toBeCloseTo(0.5, 6);
    expect(stats.longLength).toBeCloseTo(520, 6);
    expect(stats.longCruise).toBeCloseTo(2.5, 6);
    const b = behaviorMetrics({ mouse });
    expect(b.stroke_length_ratio).toBeCloseTo(5, 6);
    expect(b.stroke_speed_ratio).toBeCloseTo(5, 6);
  });

  it('takes the middle half at its average speed: a bell profile cruises near its peak, one late event barely counts', () => {
    // A bell: 1 px/ms for the first and last quarter of the time, 3 px/ms between (16 ms samples).
    const mouse: Sample[] = [[0, 100, 300]];
    for (let i = 1; i <= 24; i++)
      mouse.push([16 * i, mouse[i - 1]![1] + 16 * (i <= 6 || i > 18 ? 1 : 3), 300]);
    expect(strokeStats(readMousePath(mouse)).shortCruise).toBeCloseTo(3, 6);
    // Steady 1 px/ms in 16 px steps; step 10 arrives 12 ms late, so the next pair reads 4 px/ms.
    const late: Sample[] = [];
    for (let i = 0; i <= 20; i++) late.push([16 * i + (i === 10 ? 12 : 0), 100 + 16 * i, 300]);
    expect((late[11]![1] - late[10]![1]) / (late[11]![0] - late[10]![0])).toBe(4);
    const cruise = strokeStats(readMousePath(late)).shortCruise;
    expect(cruise).toBeGreaterThan(0.9);
    expect(cruise).toBeLessThan(1.1);
  });

  it('flags all 9 WindMouse logins recorded in real chromium (a 5–7× longer stroke cruising at 0.58–1.09× the speed)', () => {
    const windmouse = RECORDED.sessions.filter((s) => s.setup === 'xdotool-windmouse');
    expect(windmouse).toHaveLength(9);
    for (const s of windmouse) {
      const { f, rules } = signalRules(s.mouse);
      expect(rules, `batch ${s.batch} run ${s.run}`).toContain('mouse_speed_ignores_distance');
      expect(rules).not.toContain('behavior_humanlike');
      expect(scriptedInput(f)).toBe(true);
    }
  });

  it('leaves the replayed person in real chromium alone (6 logins: a 3.1–3.4× longer stroke, 2.6–4.2× the speed)', () => {
    const people = RECORDED.sessions.filter((s) => s.setup === 'person-pc1');
    expect(people).toHaveLength(6);
    for (const s of people) {
      const { rules } = signalRules(s.mouse);
      expect(rules, `run ${s.run}`).not.toContain('mouse_speed_ignores_distance');
      expect(rules, `run ${s.run}`).toContain('behavior_humanlike');
    }
  });

  it('is no answer to the NaturalMouseMotion-style generator, whose moves take 0.5–1 s whatever the distance', () => {
    const nmm = RECORDED.sessions.filter((r) => r.setup === 'xdotool-nmm');
    expect(nmm).toHaveLength(6);
    for (const s of nmm)
      expect(behaviorMetrics({ mouse: s.mouse }).stroke_speed_ratio, `run ${s.run}`).toBeGreaterThan(5);
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

  it('rests on a law people keep: every pair of DELBOT human strokes 4× apart in length cruises ≥ length-ratio^0.12 faster, as any device would deliver them', () => {
    // Circle drawing is no aimed movement, so the signal never judges these pages (above); the law
    // itself is checked here on every pair of strokes (split, sized and thinned as the engine and
    // the SDK do), directed or not.
    const traces = traceFiles('circles_human_pc1').map((file) => loadTrace(file).mouse as Sample[]);
    for (const [name, transform] of Object.entries(TRANSFORMS)) {
      const strokes = traces.flatMap((trace) => judgedStrokes(thin(transform(trace))));
      let pairs = 0;
      let lowest = Number.POSITIVE_INFINITY;
      for (const long of strokes)
        for (const short of strokes) {
          const ratio = long.length / short.length;
          if (ratio < BEHAVIOR.isochronyLengthRatio) continue;
          pairs++;
          lowest = Math.min(lowest, Math.log(long.cruise / short.cruise) / Math.log(ratio));
        }
      expect(pairs, name).toBeGreaterThan(100);
      expect(lowest, name).toBeGreaterThan(BEHAVIOR.isochronyExponent + 0.04);
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
