import type { Viewport } from './geometry.ts';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A centred form: `fields` inputs stacked, then the submit button. */
export function formLayout(view: Viewport, fields: number): { inputs: Box[]; submit: Box } {
  const w = Math.min(360, view.w - 32);
  const x = (view.w - w) / 2;
  const top = Math.max(90, view.h * 0.28);
  const inputs: Box[] = [];
  for (let i = 0; i < fields; i++) inputs.push({ x, y: top + i * 72, w, h: 42 });
  return { inputs, submit: { x, y: top + fields * 72 + 12, w, h: 46 } };
}
