import type { Signal } from '../engine-types.ts';

/**
 * The path-geometry tells: each reads the shape of the same strokes from move to move (ruled
 * lines, curvature too even for a hand, turns too sharp, steps back and forth). On one page they
 * are one piece of evidence, not several: a person's odd stroke can meet two of them at once (a
 * straight leg and a smooth one at 60 Hz, with sharp turns on a third: `eval:aiming`, the one
 * block of a held-out person), and a script's path is no more scripted for meeting two.
 */
export const PATH_GEOMETRY: ReadonlySet<string> = new Set([
  'mouse_straight_path',
  'mouse_smooth_curve',
  'mouse_sharp_turns',
  'mouse_synthetic_jitter',
]);

/**
 * Counts the page's path geometry once: of the geometry tells in `signals`, the strongest keeps
 * its score and the others are kept for the record at 0. Returns how many tells of other kinds
 * the geometry tells add up to for `behavior_bot_combined` (1 if any fired, else 0) and the
 * signals rewritten.
 */
export function countGeometryOnce(signals: readonly Signal[]): { signals: Signal[]; geometry: number } {
  const geometry = signals.filter((s) => PATH_GEOMETRY.has(s.rule));
  if (geometry.length <= 1) return { signals: [...signals], geometry: geometry.length };
  const strongest = geometry.reduce((a, b) => (b.score > a.score ? b : a));
  return {
    geometry: 1,
    signals: signals.map((s) =>
      PATH_GEOMETRY.has(s.rule) && s !== strongest
        ? {
            ...s,
            score: 0,
            description: `${s.description} Counted once, with ${strongest.rule}: the same strokes' shape.`,
          }
        : s,
    ),
  };
}
