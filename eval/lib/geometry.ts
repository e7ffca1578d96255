import type { Rng } from './rng.ts';
import type { Sample, Trace } from './traces.ts';

/** CSS pixels to 0.1, as the SDK records them. */
export const r1 = (v: number): number => Math.round(v * 10) / 10;

export interface Pt {
  x: number;
  y: number;
}

export interface Viewport {
  w: number;
  h: number;
}

export const clampTo = (v: Viewport, p: Pt): Pt => ({
  x: Math.max(0, Math.min(v.w - 1, p.x)),
  y: Math.max(0, Math.min(v.h - 1, p.y)),
});

/** A point inside a target box (a form field or button), not its exact centre. */
export function aimAt(rng: Rng, box: { x: number; y: number; w: number; h: number }): Pt {
  return { x: box.x + rng.uniform(0.2, 0.8) * box.w, y: box.y + rng.uniform(0.25, 0.75) * box.h };
}

/**
 * A recorded trace carried onto a new start and end point by a similarity transform (rotation +
 * uniform scale). Angles, turning and timing are untouched: only where the movement happens
 * changes. Times are re-based to `t0`; the original inter-event intervals are kept.
 */
export function placeTrace(trace: Trace, from: Pt, to: Pt, t0: number, view: Viewport): Sample[] {
  const first = trace.moves[0]!;
  const last = trace.moves[trace.moves.length - 1]!;
  const dx = last[1] - first[1];
  const dy = last[2] - first[2];
  const vx = to.x - from.x;
  const vy = to.y - from.y;
  const d = Math.hypot(dx, dy) || 1;
  const scale = Math.hypot(vx, vy) / d;
  const rot = Math.atan2(vy, vx) - Math.atan2(dy, dx);
  const cos = Math.cos(rot) * scale;
  const sin = Math.sin(rot) * scale;
  const out: Sample[] = [];
  // The first sample is where the cursor already is; samples outside the page fire no events.
  for (const [t, x, y] of trace.moves.slice(1)) {
    const ox = x - first[1];
    const oy = y - first[2];
    const p = { x: from.x + ox * cos - oy * sin, y: from.y + ox * sin + oy * cos };
    if (p.x < 0 || p.y < 0 || p.x >= view.w || p.y >= view.h) continue;
    out.push([t - first[0] + t0, r1(p.x), r1(p.y)]);
  }
  return out;
}

/** Straight-line distance scale between a trace and a wanted move (1 = same length). */
export function traceScale(trace: Trace, from: Pt, to: Pt): number {
  const first = trace.moves[0]!;
  const last = trace.moves[trace.moves.length - 1]!;
  const d = Math.hypot(last[1] - first[1], last[2] - first[2]) || 1;
  return Math.hypot(to.x - from.x, to.y - from.y) / d;
}

/** The trace (of a few random candidates) whose length best fits the wanted move. */
export function fittingTrace(rng: Rng, traces: readonly Trace[], from: Pt, to: Pt): Trace {
  let best = rng.pick(traces);
  let bestErr = Math.abs(Math.log(traceScale(best, from, to)));
  for (let i = 0; i < 6; i++) {
    const t = rng.pick(traces);
    const err = Math.abs(Math.log(traceScale(t, from, to)));
    if (err < bestErr) {
      best = t;
      bestErr = err;
    }
  }
  return best;
}
