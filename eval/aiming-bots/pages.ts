import type { BehaviorEvidence } from '@warden/protocol';
import { HumanScript, loadTraces, type Point, withoutJumps } from '../../e2e/support/human-input.ts';
import { mulberry32 } from '../../packages/server/src/testing/rng.ts';
import { readReaches as readStudyReaches } from '../aiming/reaches.ts';
import {
  type DesktopStyle,
  desktopScript,
  type ScreenLayout,
  screenLayout,
} from '../browsers/desktop-input.ts';
import { recordScript } from './virtual-desktop.ts';

/**
 * Sign-in pages as the SDK records them, built offline: the benchmark's own xdotool scripts
 * (eval/browsers/desktop-input.ts: the npm path libraries with person-like keys, and the replayed
 * person) run on a virtual desktop, and people's aimed reaches from a mouse-tracking study carried
 * onto the same form's legs.
 */

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

const CREDS = { email: 'ana.silva@example.com', password: 'Correct-Horse-7' };

let pc1: ReturnType<typeof loadTraces> | undefined;

/** One sign-in page driven by `style` (a library, or `human`: the replayed circles_human_pc1). */
export async function scriptedPage(
  style: DesktopStyle,
  seed: number,
  traceDir?: string,
): Promise<BehaviorEvidence> {
  pc1 ??= loadTraces(traceDir, 200)
    .filter((t) => t.moves.length >= 40)
    .map(withoutJumps);
  const run = seed % 150;
  const lines = await desktopScript(style, SHOP_LAYOUT, CREDS, seed, {
    human: pc1.slice(((run * 7) % 150) % pc1.length),
    bot: pc1,
  });
  return recordScript(lines, SHOP_LAYOUT);
}

/** One aimed reach of the mouse-tracking study: [ms from its first sample, x, y], then the click. */
export interface Reach {
  subject: number;
  moves: Array<[number, number, number]>;
  /** When the button was clicked (ms from the first sample). */
  clickMs: number;
}

/**
 * The study's reaches (eval/aiming/reaches.ts reads `raw_data.csv.gz` from where it lies, never
 * copied; positions that did not change fire no pointer event and are dropped) with five or more
 * pointer events, in this script's shape.
 */
export function readReaches(file: string): Reach[] {
  return readStudyReaches(file)
    .filter((r) => r.moves.length >= 5)
    .map((r) => ({ subject: r.subject, moves: r.moves.map(([t, x, y]) => [t, x, y]), clickMs: r.press[0] }));
}

/**
 * A sign-in page of one person: three of their reaches carried onto the form's legs (a rest point
 * → email → password → submit) by rotation and uniform scale with their own timing, typing between
 * (HumanScript.type), each reach clicked where it ended, when the person clicked.
 */
export function personPage(
  reaches: readonly Reach[],
  seed: number,
  timing: ReachTiming = 'kept',
): BehaviorEvidence {
  const random = mulberry32(seed);
  const between = (lo: number, hi: number) => lo + (hi - lo) * random();
  const layout = SHOP_LAYOUT;
  const script = new HumanScript(seed);
  let at: Point = {
    x: Math.round(layout.content.x + between(100, 600)),
    y: Math.round(layout.content.y + between(300, 600)),
  };
  script.cmd(`mousemove ${at.x} ${at.y}`).sleep(between(400, 900));
  const legs = [layout.email, layout.password, layout.submit];
  for (const [i, box] of legs.entries()) {
    const reach = reaches[i % reaches.length]!;
    const to = { x: box.x + box.width * between(0.35, 0.65), y: box.y + box.height * between(0.35, 0.65) };
    at = carry(script, reach, at, to, timing);
    script.sleep(reach.clickMs - reach.moves[reach.moves.length - 1]![0]);
    script.cmd('mousedown 1').sleep(between(70, 140)).cmd('mouseup 1').sleep(between(150, 400));
    if (i < 2) script.type(i === 0 ? CREDS.email : CREDS.password);
  }
  return recordScript(script.lines, layout);
}

/**
 * How a carried reach is timed: `kept`, the person's own timing whatever the new distance (what a
 * replay does: a reach scaled down keeps its duration, so its speed falls with the distance), or
 * `fitts`: its duration scaled by Fitts' law from the study's distance to the leg's, MT ∝
 * log2(D/W + 1) with W the form's field height (43 px) and no intercept — the least speed-up with
 * distance that law allows — the person's own scatter about the law kept.
 */
export type ReachTiming = 'kept' | 'fitts';
const FIELD_PX = 43;

/** Moves along `reach` from `from` so that its end lands on `to`; returns where the pointer ended. */
function carry(script: HumanScript, reach: Reach, from: Point, to: Point, timing: ReachTiming): Point {
  const [, ax, ay] = reach.moves[0]!;
  const [, bx, by] = reach.moves[reach.moves.length - 1]!;
  const studied = Math.max(1, Math.hypot(bx - ax, by - ay));
  const wanted = Math.hypot(to.x - from.x, to.y - from.y);
  const scale = wanted / studied;
  const id = (d: number) => Math.log2(d / FIELD_PX + 1);
  const stretch = timing === 'fitts' ? id(wanted) / id(studied) : 1;
  const rot = Math.atan2(to.y - from.y, to.x - from.x) - Math.atan2(by - ay, bx - ax);
  const cos = Math.cos(rot) * scale;
  const sin = Math.sin(rot) * scale;
  let prev = 0;
  let end = from;
  for (const [t, x, y] of reach.moves.slice(1)) {
    const p = {
      x: Math.round(from.x + (x - ax) * cos - (y - ay) * sin),
      y: Math.round(from.y + (x - ax) * sin + (y - ay) * cos),
    };
    script.sleep((t - prev) * stretch);
    prev = t;
    if (p.x === end.x && p.y === end.y) continue;
    script.cmd(`mousemove ${p.x} ${p.y}`);
    end = p;
  }
  return end;
}
