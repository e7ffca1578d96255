import { type ScreenLayout, screenLayout } from '../browsers/screen-layout.ts';
import type { Sample } from '../lib/traces.ts';
import type { Reach } from './reaches.ts';

/**
 * People's aimed reaches (the mouse-tracking study, reaches.ts) carried onto the legs of the shop's
 * sign-in form, one way for every evaluation that uses them: `eval:aiming` (into the SDK recorder
 * model), `eval:aiming-bots` and `eval:browsers` (as xdotool scripts). A reach is rotated and
 * uniformly scaled so that it runs from where the pointer rests to a point of the next field, in
 * floating point: the positions are rounded once, where the pointer would deliver them (the
 * recorder model's 0.1 px, or xdotool's whole pixels), never twice.
 */

export interface Point {
  x: number;
  y: number;
}

/** The shop page of eval/browsers/shop.ts in a 1280×1024 chromium window (as its layout reports it). */
export const SHOP_LAYOUT: ScreenLayout = screenLayout({
  screenX: 0,
  screenY: 0,
  outerWidth: 1280,
  outerHeight: 1024,
  innerWidth: 1280,
  innerHeight: 900,
  email: { x: 848, y: 154, width: 364, height: 43 },
  password: { x: 848, y: 247, width: 364, height: 43 },
  submit: { x: 848, y: 346, width: 364, height: 45 },
});

/**
 * How a carried reach is timed: `kept`, the person's own timing whatever the new distance (what a
 * replay does: a reach scaled down keeps its duration, so its speed falls with the distance), or
 * `fitts`: its duration scaled by Fitts' law from the study's distance to the leg's, MT ∝
 * log2(D/W + 1) with W the form's field height (43 px) and no intercept — the least speed-up with
 * distance that law allows — the person's own scatter about the law kept.
 */
export type ReachTiming = 'kept' | 'fitts';
const FIELD_PX = 43;

/** Reaches per sign-in page: to the email field, to the password field, to the submit button. */
export const REACHES_PER_PAGE = 3;

/**
 * Where a sign-in page's pointer starts (somewhere in the page's left half) and the point of each
 * field it goes to (email, password, submit; 35–65 % across and down each box), in the layout's
 * screen pixels, drawn from `random` (4 + 2 per leg draws, in that order).
 */
export function signInLegs(layout: ScreenLayout, random: () => number): { start: Point; targets: Point[] } {
  const between = (lo: number, hi: number) => lo + (hi - lo) * random();
  const start = {
    x: Math.round(layout.content.x + between(100, 600)),
    y: Math.round(layout.content.y + between(300, 600)),
  };
  const targets = [layout.email, layout.password, layout.submit].map((box) => ({
    x: box.x + box.width * between(0.35, 0.65),
    y: box.y + box.height * between(0.35, 0.65),
  }));
  return { start, targets };
}

/**
 * `reach`'s moves rotated and uniformly scaled about its first sample so that its first sample
 * lies on `from` and its last on `to`, in floating point; times from its first sample (0), scaled
 * by `timing`. The first sample is where the pointer already rests (not a move). `dwellMs`: the
 * reach's rest on its target before the press, as recorded (a rest is not stretched).
 */
export function carryReach(
  reach: Pick<Reach, 'moves' | 'press'>,
  from: Point,
  to: Point,
  timing: ReachTiming = 'kept',
): { moves: Sample[]; dwellMs: number } {
  const moves = reach.moves;
  const [t0, ax, ay] = moves[0]!;
  const [tn, bx, by] = moves[moves.length - 1]!;
  const studied = Math.max(1, Math.hypot(bx - ax, by - ay));
  const wanted = Math.hypot(to.x - from.x, to.y - from.y);
  const scale = wanted / studied;
  const id = (d: number) => Math.log2(d / FIELD_PX + 1);
  const stretch = timing === 'fitts' ? id(wanted) / id(studied) : 1;
  const rot = Math.atan2(to.y - from.y, to.x - from.x) - Math.atan2(by - ay, bx - ax);
  const cos = Math.cos(rot) * scale;
  const sin = Math.sin(rot) * scale;
  return {
    moves: moves.map(
      ([t, x, y]): Sample => [
        (t - t0) * stretch,
        from.x + (x - ax) * cos - (y - ay) * sin,
        from.y + (x - ax) * sin + (y - ay) * cos,
      ],
    ),
    dwellMs: Math.max(0, reach.press[0] - tn),
  };
}

/** What a script's pointer can do: move to whole pixels, sleep (HumanScript's lines). */
export interface PointerScript {
  cmd(line: string): unknown;
  sleep(ms: number): unknown;
}

/**
 * A carried reach as xdotool moves from `at` (where the pointer rests): each position rounded once
 * to whole pixels, a position equal to the previous one sent as no move (X sends none), slept to
 * its time. Returns where the pointer ended.
 */
export function moveAlong(script: PointerScript, moves: readonly Sample[], at: Point): Point {
  let prev = moves[0]?.[0] ?? 0;
  let end = at;
  for (const [t, x, y] of moves.slice(1)) {
    script.sleep(t - prev);
    prev = t;
    const p = { x: Math.round(x), y: Math.round(y) };
    if (p.x === end.x && p.y === end.y) continue;
    script.cmd(`mousemove ${p.x} ${p.y}`);
    end = p;
  }
  return end;
}
