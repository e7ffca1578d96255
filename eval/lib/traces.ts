import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * DELBOT-Mouse traces (the repository's fixtures/mouse-dev, MIT): `resolution:W,H`, then
 * `<performance.now() ms>,<Move|Pressed|Released>,<x>,<y>` per line.
 */
export const MOUSE_DATA_DIR =
  process.env.WARDEN_EVAL_MOUSE_DIR ?? fileURLToPath(new URL('../../fixtures/mouse-dev', import.meta.url));

export type Sample = readonly [t: number, x: number, y: number];

export interface Trace {
  name: string;
  width: number;
  height: number;
  moves: Sample[];
  presses: Sample[];
}

export function parseTrace(name: string, text: string): Trace {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const head = /^resolution:(\d+),(\d+)/.exec(lines[0] ?? '');
  const trace: Trace = {
    name,
    width: head ? Number(head[1]) : 1920,
    height: head ? Number(head[2]) : 1080,
    moves: [],
    presses: [],
  };
  for (const line of lines.slice(head ? 1 : 0)) {
    const [t, kind, x, y] = line.split(',');
    const sample: Sample = [Number(t), Number(x), Number(y)];
    if (sample.some((v) => !Number.isFinite(v))) continue;
    if (kind === 'Move') trace.moves.push(sample);
    else if (kind === 'Pressed') trace.presses.push(sample);
  }
  return trace;
}

/** All traces of one folder, in file-name order (deterministic); throws when the folder is missing. */
export function loadTraces(folder: string): Trace[] {
  const dir = join(MOUSE_DATA_DIR, folder);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort();
  return files
    .map((f) => parseTrace(f, readFileSync(join(dir, f), 'utf8')))
    .filter((t) => t.moves.length >= 8);
}

/** Point-to-point movements cut from the traces (see `movements`). */
export interface TraceLibrary {
  human: Trace[];
  pynput: Trace[];
  pyhm: Trace[];
}

export function loadTraceLibrary(): TraceLibrary {
  return {
    human: movements(loadTraces('circles_human_pc1')),
    pynput: movements(loadTraces('circles_bot_pynput')),
    pyhm: movements(loadTraces('circles_bot_pyhm')),
  };
}

/**
 * The DELBOT traces are out-and-back excursions (press, move out, come back): split each at its
 * farthest point into two point-to-point movements, which is what a form needs (cursor to field).
 */
export function movements(traces: readonly Trace[]): Trace[] {
  const out: Trace[] = [];
  for (const trace of traces) {
    const m = trace.moves;
    const s = m[0]!;
    let far = 0;
    let best = -1;
    for (const [i, p] of m.entries()) {
      const d = Math.hypot(p[1] - s[1], p[2] - s[2]);
      if (d > best) {
        best = d;
        far = i;
      }
    }
    for (const [part, seg] of [m.slice(0, far + 1), m.slice(far)].entries()) {
      const a = seg[0];
      const b = seg[seg.length - 1];
      if (!a || !b || seg.length < 8 || Math.hypot(b[1] - a[1], b[2] - a[2]) < 80) continue;
      out.push({ ...trace, name: `${trace.name}#${part}`, moves: seg, presses: [] });
    }
  }
  return out;
}
