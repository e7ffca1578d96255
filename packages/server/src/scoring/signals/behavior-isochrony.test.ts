import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import {
  AIMED_PRESS_MS,
  AIMED_PRESS_PX,
  cruiseSpeed,
  DIRECTED_STROKE,
  readMousePath,
  STROKE_PAUSE_MS,
  strokeStats,
} from '../mouse-path.ts';
import { baseFeatures, humanKeys, traceFiles } from '../test-fixtures.ts';
import { BEHAVIOR, behavior, scriptedInput, speedIgnoresDistance } from './behavior.ts';

type Sample = [number, number, number];

/**
 * Pointer moves recorded in real chromium on Xvfb by the benchmark's probe (`npm run
 * eval:browsers -- --json`), thinned as the SDK sends them (one move per 16 ms, 0.1 px), and the
 * pointer presses (pointerdown, the same clock): the xdotool setups driven by the npm `windmouse`
 * package, `@extra/humanize`, ghost-cursor and the NaturalMouseMotion-style generator, and the
 * replayed person (person-pc1).
 */
const RECORDED = JSON.parse(
  readFileSync(new URL('./fixtures/xdotool-paths.json', import.meta.url), 'utf8'),
) as { sessions: Array<{ setup: string; run: number; batch: string; mouse: Sample[]; clicks: Sample[] }> };

const signalRules = (mouse: Sample[], clicks: Sample[]) => {
  const f = baseFeatures({
    surface: 'browser',
    behavior: behaviorMetrics({
      mouse,
      click_samples: clicks,
      mouse_moves: mouse.length,
      key_samples: humanKeys(3, 40, 4000),
      key_presses: 40,
      time_to_submit_ms: 20000,
    }),
  });
  return { f, rules: behavior.evaluate(f).map((s) => s.rule) };
};

/** A DELBOT trace: its moves, and its presses and releases (where the circle was clicked). */
interface Trace {
  mouse: Sample[];
  clicks: Sample[];
}

/**
 * A DELBOT trace file, times from its first event. DELBOT logs the click that ends a move to a
 * circle as `Released` (often with no `Pressed` before it), so both stand for the SDK's pointerdown.
 */
function readTrace(file: string): Trace {
  const trace: Trace = { mouse: [], clicks: [] };
  let t0: number | undefined;
  for (const line of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
    const [t, kind, x, y] = line.trim().split(',');
    t0 ??= Number(t);
    const sample: Sample = [Number(t) - t0, Number(x), Number(y)];
    if (kind === 'Move') trace.mouse.push(sample);
    else trace.clicks.push(sample);
  }
  return trace;
}

const humanTraces = (): Trace[] => traceFiles('circles_human_pc1').map(readTrace);

/** One page: the traces one after another, 5 s apart (as humanSession joins them). */
const session = (traces: Trace[]): Trace => {
  const page: Trace = { mouse: [], clicks: [] };
  traces.forEach((trace, k) => {
    for (const [t, x, y] of trace.mouse) page.mouse.push([t + 5000 * (k + 1), x, y]);
    for (const [t, x, y] of trace.clicks) page.clicks.push([t + 5000 * (k + 1), x, y]);
  });
  return page;
};

const scaled = (m: Sample[], time: number, space: number, round = false): Sample[] =>
  m.map(([t, x, y]) => [
    t * time,
    round ? Math.round(x * space) : x * space,
    round ? Math.round(y * space) : y * space,
  ]);

/** What another device or person would deliver from the same movement (presses move with it). */
const TRANSFORMS: Record<string, (trace: Trace) => Trace> = {
  'as recorded': (tr) => tr,
  'twice as fast': (tr) => ({ mouse: scaled(tr.mouse, 0.5, 1), clicks: scaled(tr.clicks, 0.5, 1) }),
  'twice as slow': (tr) => ({ mouse: scaled(tr.mouse, 2, 1), clicks: scaled(tr.clicks, 2, 1) }),
  'resampled at 60 Hz': (tr) => ({ mouse: resample(tr.mouse, 60), clicks: tr.clicks }),
  'resampled at 30 Hz (remote desktop)': (tr) => ({ mouse: resample(tr.mouse, 30), clicks: tr.clicks }),
  'half the pixels (touchpad)': (tr) => ({
    mouse: scaled(tr.mouse, 1, 0.5, true),
    clicks: scaled(tr.clicks, 1, 0.5, true),
  }),
  'twice the pixels (high DPI)': (tr) => ({ mouse: scaled(tr.mouse, 1, 2), clicks: scaled(tr.clicks, 1, 2) }),
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

interface Stroke {
  /** Samples [start, end) of the path. */
  start: number;
  end: number;
  length: number;
  cruise: number;
  /** Chord ≥ DIRECTED_STROKE of the path. */
  directed: boolean;
}

/** The strokes the engine sizes up (moves ≤ STROKE_PAUSE_MS apart, ≥ 8 samples, ≥ 100 px). */
function sizedStrokes(m: Sample[]): Stroke[] {
  const path = readMousePath(m);
  const out: Stroke[] = [];
  let start = 0;
  for (let i = 1; i <= path.n; i++) {
    if (i < path.n && path.t[i]! - path.t[i - 1]! <= STROKE_PAUSE_MS) continue;
    let length = 0;
    for (let k = start + 1; k < i; k++) length += path.len[k]!;
    if (i - start >= 8 && length >= 100) {
      const chord = Math.hypot(path.x[i - 1]! - path.x[start]!, path.y[i - 1]! - path.y[start]!);
      out.push({
        start,
        end: i,
        length,
        cruise: cruiseSpeed(path, start, i, length),
        directed: chord >= DIRECTED_STROKE * length,
      });
    }
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

/** A point on the page. */
type Point = [number, number];

/**
 * A piece of a person's movement: `samples` consecutive moves of a pc1 trace, from the first
 * place where they run fairly straight (chord ≥ 0.8 of the path: an arc of the circling hand),
 * at its recorded timing; null if the trace has none.
 */
function humanPiece(mouse: Sample[], samples: number): Sample[] | null {
  for (let i = 0; i + samples <= mouse.length; i += 4) {
    const piece = mouse.slice(i, i + samples);
    let path = 0;
    for (let k = 1; k < piece.length; k++)
      path += Math.hypot(piece[k]![1] - piece[k - 1]![1], piece[k]![2] - piece[k - 1]![2]);
    const [, x0, y0] = piece[0]!;
    const [, x1, y1] = piece[piece.length - 1]!;
    const gaps = piece.every((e, k) => k === 0 || e[0] - piece[k - 1]![0] <= 50);
    if (gaps && path >= 40 && Math.hypot(x1 - x0, y1 - y0) >= 0.8 * path) return piece;
  }
  return null;
}

/**
 * The piece rotated and scaled so that it goes from `from` to `to` (as the benchmark's replayed
 * person maps pieces of pc1 traces onto its moves), starting at `t0`, its time stretched by
 * `stretch`; positions interpolated at every 16 ms (a device reports each frame while moving).
 */
function mapPiece(piece: Sample[], from: Point, to: Point, t0: number, stretch: number): Sample[] {
  const [ts, xs, ys] = piece[0]!;
  const [, xe, ye] = piece[piece.length - 1]!;
  const [cx, cy] = [xe - xs, ye - ys];
  const [dx, dy] = [to[0] - from[0], to[1] - from[1]];
  // The complex ratio (dx + i dy) / (cx + i cy): rotation and scale in one.
  const norm = cx * cx + cy * cy;
  const re = (dx * cx + dy * cy) / norm;
  const im = (dy * cx - dx * cy) / norm;
  const moved = piece.map(([t, x, y]): Sample => {
    const [px, py] = [x - xs, y - ys];
    return [(t - ts) * stretch, from[0] + re * px - im * py, from[1] + im * px + re * py];
  });
  const out: Sample[] = [];
  const end = moved[moved.length - 1]![0];
  for (let t = 0, j = 0; t <= end + 15.9; t += 16) {
    const at = Math.min(t, end);
    while (j + 1 < moved.length && moved[j + 1]![0] <= at) j++;
    const [ta, xa, ya] = moved[j]!;
    const [tb, xb, yb] = moved[Math.min(j + 1, moved.length - 1)]!;
    const w = tb > ta ? (at - ta) / (tb - ta) : 0;
    out.push([
      t0 + at,
      Math.round((xa + w * (xb - xa)) * 10) / 10,
      Math.round((ya + w * (yb - ya)) * 10) / 10,
    ]);
  }
  return out;
}

/**
 * A person on a login page, from pc1 movement: reading, the hand drifts the pointer slowly 600 px
 * across the page (a piece stretched to `driftMs`), with no press after it; then quick aimed moves
 * (pieces at their recorded speed) to the two fields and the button, 100–160 px apart, each ended
 * by a press 150 ms after the pointer stops where it stopped.
 */
function readingPage(traces: Trace[], i: number, driftMs: number): Trace | null {
  const pieces = [0, 1, 2, 3].map((k) => humanPiece(traces[(i + k) % traces.length]!.mouse, 22));
  if (pieces.some((p) => p === null)) return null;
  const [drift, ...aimed] = pieces as Sample[][];
  const driftTime = drift![drift!.length - 1]![0] - drift![0]![0];
  const page: Trace = {
    mouse: mapPiece(drift!, [200, 250], [800, 330], 1000, driftMs / driftTime),
    clicks: [],
  };
  const stops: Point[] = [
    [800, 330],
    [920, 260],
    [900, 360],
    [960, 490],
  ];
  let t = page.mouse[page.mouse.length - 1]![0] + 1500;
  aimed.forEach((piece, k) => {
    const move = mapPiece(piece, stops[k]!, stops[k + 1]!, t, 1);
    page.mouse.push(...move);
    const [end, x, y] = move[move.length - 1]!;
    page.clicks.push([end + 150, x, y]);
    t = end + 2500;
  });
  return page;
}

/** The signal's test applied to the shortest and longest of every directed stroke, aimed or not. */
function firesOverDirected(strokes: Stroke[]): boolean {
  const directed = strokes.filter((s) => s.directed && s.cruise > 0);
  if (directed.length < 2) return false;
  const short = directed.reduce((a, b) => (b.length < a.length ? b : a));
  const long = directed.reduce((a, b) => (b.length > a.length ? b : a));
  const ratio = long.length / short.length;
  return (
    ratio >= BEHAVIOR.isochronyLengthRatio && long.cruise / short.cruise < ratio ** BEHAVIOR.isochronyExponent
  );
}

describe('a long stroke no faster than a short one (mouse_speed_ignores_distance)', () => {
  it('measures the cruise speed (middle half of the path over its time) of the shortest and the longest directed stroke', () => {
    // 104 px at 0.5 px/ms, a pause, then 520 px at 2.5 px/ms: both straight, one sample per 16 ms.
    const line = (t0: number, steps: number, speed: number): Sample[] =>
      Array.from({ length: steps + 1 }, (_, i) => [t0 + 16 * i, 100 + speed * 16 * i, 300]);
    const mouse = [...line(0, 13, 0.5), ...line(2000, 13, 2.5)];
    // Each ends on its target: a press 150 ms later where it stopped.
    const clicks: Sample[] = [
      [358, 204, 300],
      [2358, 620, 300],
    ];
    const stats = strokeStats(readMousePath(mouse), clicks);
    expect(stats.directed).toBe(2);
    expect(stats.aimed).toBe(2);
    expect(stats.shortLength).toBeCloseTo(104, 6);
    expect(stats.shortCruise).toBeCloseTo(0.5, 6);
    expect(stats.longLength).toBeCloseTo(520, 6);
    expect(stats.longCruise).toBeCloseTo(2.5, 6);
    const b = behaviorMetrics({ mouse, click_samples: clicks });
    expect(b.stroke_length_ratio).toBeCloseTo(5, 6);
    expect(b.stroke_speed_ratio).toBeCloseTo(5, 6);
  });

  it('judges aimed strokes only: a press within AIMED_PRESS_MS of the stroke stopping, within AIMED_PRESS_PX of where it stopped', () => {
    // Two straight strokes ending at (204, 300) at t 208 and at (620, 300) at t 2208.
    const line = (t0: number, steps: number, speed: number): Sample[] =>
      Array.from({ length: steps + 1 }, (_, i) => [t0 + 16 * i, 100 + speed * 16 * i, 300]);
    const mouse = [...line(0, 13, 0.5), ...line(2000, 13, 2.5)];
    const aimed = (clicks: Sample[]) => strokeStats(readMousePath(mouse), clicks).aimed;
    expect(aimed([])).toBe(0);
    expect(aimed([[208, 204, 300]])).toBe(1);
    expect(aimed([[208 + AIMED_PRESS_MS, 204, 300 + AIMED_PRESS_PX]])).toBe(1);
    expect(aimed([[208 + AIMED_PRESS_MS + 1, 204, 300]])).toBe(0);
    expect(aimed([[300, 204, 300 + AIMED_PRESS_PX + 1]])).toBe(0);
    // A press before the stroke stopped (clicking on the way) does not make it aimed.
    expect(aimed([[150, 175, 300]])).toBe(0);
    // Presses far away first, then the one where the stroke stopped; one press after each stroke.
    expect(
      aimed([
        [250, 900, 900],
        [400, 204, 300],
        [2300, 621, 301],
      ]),
    ).toBe(2);
    // One press per stroke is enough: with none after the long one, nothing is compared.
    expect(behaviorMetrics({ mouse, click_samples: [[358, 204, 300]] }).stroke_length_ratio).toBeNull();
  });

  it('takes the middle half at its average speed: a bell profile cruises near its peak, one late event barely counts', () => {
    // A bell: 1 px/ms for the first and last quarter of the time, 3 px/ms between (16 ms samples).
    const mouse: Sample[] = [[0, 100, 300]];
    for (let i = 1; i <= 24; i++)
      mouse.push([16 * i, mouse[i - 1]![1] + 16 * (i <= 6 || i > 18 ? 1 : 3), 300]);
    expect(strokeStats(readMousePath(mouse), [[400, mouse[24]![1], 300]]).shortCruise).toBeCloseTo(3, 6);
    // Steady 1 px/ms in 16 px steps; step 10 arrives 12 ms late, so the next pair reads 4 px/ms.
    const late: Sample[] = [];
    for (let i = 0; i <= 20; i++) late.push([16 * i + (i === 10 ? 12 : 0), 100 + 16 * i, 300]);
    expect((late[11]![1] - late[10]![1]) / (late[11]![0] - late[10]![0])).toBe(4);
    const cruise = strokeStats(readMousePath(late), [[400, 420, 300]]).shortCruise;
    expect(cruise).toBeGreaterThan(0.9);
    expect(cruise).toBeLessThan(1.1);
  });

  it('flags all 9 WindMouse logins recorded in real chromium (a 5–7× longer stroke cruising at 0.58–1.09× the speed)', () => {
    const windmouse = RECORDED.sessions.filter((s) => s.setup === 'xdotool-windmouse');
    expect(windmouse).toHaveLength(9);
    for (const s of windmouse) {
      const { f, rules } = signalRules(s.mouse, s.clicks);
      expect(rules, `batch ${s.batch} run ${s.run}`).toContain('mouse_speed_ignores_distance');
      expect(rules).not.toContain('behavior_humanlike');
      expect(scriptedInput(f)).toBe(true);
    }
  });

  it('leaves the replayed person in real chromium alone (6 logins: a 3.1–3.4× longer stroke, 2.6–4.2× the speed)', () => {
    const people = RECORDED.sessions.filter((s) => s.setup === 'person-pc1');
    expect(people).toHaveLength(6);
    for (const s of people) {
      const { rules } = signalRules(s.mouse, s.clicks);
      expect(rules, `run ${s.run}`).not.toContain('mouse_speed_ignores_distance');
      expect(rules, `run ${s.run}`).toContain('behavior_humanlike');
    }
  });

  it('is no answer to the NaturalMouseMotion-style generator, whose moves take 0.5–1 s whatever the distance', () => {
    const nmm = RECORDED.sessions.filter((r) => r.setup === 'xdotool-nmm');
    expect(nmm).toHaveLength(6);
    for (const s of nmm)
      expect(
        behaviorMetrics({ mouse: s.mouse, click_samples: s.clicks }).stroke_speed_ratio,
        `run ${s.run}`,
      ).toBeGreaterThan(5);
  });

  it('never fires on the 187 DELBOT people, alone or 2–6 traces to a page, nor as other devices would deliver them', () => {
    const traces = humanTraces();
    expect(traces).toHaveLength(187);
    for (const [name, transform] of Object.entries(TRANSFORMS)) {
      let pages = 0;
      for (let k = 1; k <= 6; k++)
        for (let i = 0; i + k <= traces.length; i++) {
          const page = session(traces.slice(i, i + k).map(transform));
          const b = behaviorMetrics({ mouse: page.mouse, click_samples: page.clicks });
          expect(
            speedIgnoresDistance(baseFeatures({ behavior: b })),
            `${name}: traces ${i}–${i + k - 1}`,
          ).toBe(false);
          pages++;
        }
      expect(pages).toBe(1107);
    }
  });

  it('does not take a slow reading drift for a generator: a long stroke with no press where it stops is not aimed', () => {
    const traces = humanTraces();
    let pages = 0;
    let firesOnDirected = 0;
    for (const driftMs of [3000, 6000])
      for (let i = 0; i < traces.length; i++) {
        const page = readingPage(traces, i, driftMs);
        if (page === null) continue;
        pages++;
        // Judged over every directed stroke (the signal before it asked for a press), the drift,
        // 4–6× longer than a move to a field and slower, reads as speed that ignores distance.
        const strokes = sizedStrokes(page.mouse);
        expect(strokes.filter((s) => s.directed)).toHaveLength(4);
        if (firesOverDirected(strokes)) firesOnDirected++;
        const b = behaviorMetrics({ mouse: page.mouse, click_samples: page.clicks });
        expect(b.stroke_length_ratio, `trace ${i}, drift ${driftMs} ms`).toBeLessThan(
          BEHAVIOR.isochronyLengthRatio,
        );
        expect(speedIgnoresDistance(baseFeatures({ behavior: b })), `trace ${i}, drift ${driftMs} ms`).toBe(
          false,
        );
      }
    expect(pages).toBeGreaterThan(300);
    expect(firesOnDirected).toBe(pages);
  });

  it('rests on a law people keep: every pair of DELBOT human strokes 4× apart in length cruises ≥ length-ratio^0.12 faster, as any device would deliver them', () => {
    // Circle drawing is no aimed movement, so the signal never judges these pages (above); the law
    // itself is checked here on every pair of strokes (split, sized and thinned as the engine and
    // the SDK do), directed or not.
    const traces = humanTraces();
    for (const [name, transform] of Object.entries(TRANSFORMS)) {
      const strokes = traces.flatMap((trace) => sizedStrokes(thin(transform(trace).mouse)));
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
    const b = behaviorMetrics({
      mouse: [...line(0, 200), ...line(3000, 600)],
      click_samples: [
        [400, 300, 300],
        [3800, 700, 300],
      ],
    });
    expect(b.stroke_length_ratio).toBeLessThan(BEHAVIOR.isochronyLengthRatio);
    expect(speedIgnoresDistance(baseFeatures({ behavior: b }))).toBe(false);
  });
});
