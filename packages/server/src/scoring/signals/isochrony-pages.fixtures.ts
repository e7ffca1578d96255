import { readFileSync } from 'node:fs';
import { cruiseSpeed } from '../mouse-aimed.ts';
import { readMousePath, STROKE_PAUSE_MS } from '../mouse-path.ts';
import { DIRECTED_STROKE } from '../mouse-strokes.ts';
import { traceFiles } from '../test-fixtures.ts';

/**
 * Pages of mouse movement for the isochrony tests (behavior-isochrony.test.ts): DELBOT traces with
 * their presses, as other devices would deliver them, the strokes the engine sizes up, and a
 * person's reading page built from pieces of pc1 movement.
 */

export type Sample = [number, number, number];

/** A DELBOT trace: its moves, and its presses and releases (where the circle was clicked). */
export interface Trace {
  mouse: Sample[];
  clicks: Sample[];
}

/**
 * A DELBOT trace file, times from its first event. DELBOT logs the click that ends a move to a
 * circle as `Released` (often with no `Pressed` before it), so both stand for the SDK's pointerdown.
 */
export function readTrace(file: string): Trace {
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

export const humanTraces = (): Trace[] => traceFiles('circles_human_pc1').map(readTrace);

/** One page: the traces one after another, 5 s apart (as humanSession joins them). */
export const session = (traces: Trace[]): Trace => {
  const page: Trace = { mouse: [], clicks: [] };
  traces.forEach((trace, k) => {
    for (const [t, x, y] of trace.mouse) page.mouse.push([t + 5000 * (k + 1), x, y]);
    for (const [t, x, y] of trace.clicks) page.clicks.push([t + 5000 * (k + 1), x, y]);
  });
  return page;
};

export const scaled = (m: Sample[], time: number, space: number, round = false): Sample[] =>
  m.map(([t, x, y]) => [
    t * time,
    round ? Math.round(x * space) : x * space,
    round ? Math.round(y * space) : y * space,
  ]);

/** What another device or person would deliver from the same movement (presses move with it). */
export const TRANSFORMS: Record<string, (trace: Trace) => Trace> = {
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
export function thin(m: Sample[]): Sample[] {
  const out: Sample[] = [];
  for (const [t, x, y] of m) {
    const last = out[out.length - 1];
    if (!last || t - last[0] >= 16) out.push([t, Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
  }
  return out;
}

export interface Stroke {
  /** Samples [start, end) of the path. */
  start: number;
  end: number;
  length: number;
  cruise: number;
  /** Chord ≥ DIRECTED_STROKE of the path. */
  directed: boolean;
}

/** The strokes the engine sizes up (moves ≤ STROKE_PAUSE_MS apart, ≥ 8 samples, ≥ 100 px). */
export function sizedStrokes(m: Sample[]): Stroke[] {
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
export function resample(m: Sample[], hz: number): Sample[] {
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
export type Point = [number, number];

/**
 * A piece of a person's movement: `samples` consecutive moves of a pc1 trace, from the first
 * place where they run fairly straight (chord ≥ 0.8 of the path: an arc of the circling hand),
 * at its recorded timing; null if the trace has none.
 */
export function humanPiece(mouse: Sample[], samples: number): Sample[] | null {
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
export function mapPiece(piece: Sample[], from: Point, to: Point, t0: number, stretch: number): Sample[] {
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
export function readingPage(traces: Trace[], i: number, driftMs: number): Trace | null {
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
