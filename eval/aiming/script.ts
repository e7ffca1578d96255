import { HumanScript } from '../../e2e/support/human-input.ts';
import { mulberry32 } from '../../packages/server/src/testing/rng.ts';
import type { ScreenLayout } from '../browsers/screen-layout.ts';
import { carryReach, moveAlong, type ReachTiming, signInLegs } from './carry.ts';
import type { Reach } from './reaches.ts';

/**
 * The xdotool script of a person signing in with their own aimed reaches (`eval:aiming-bots` on a
 * virtual desktop, `eval:browsers` in real chromium): the pointer rests in the page, then each of
 * `reaches` (cycled when fewer than three) is carried onto a leg of the form (carry.ts), and
 * pressed after the person's own rest on the target; the press is held 70–140 ms, and the fields
 * are typed as HumanScript types (a typist drawn per page). Deterministic in `seed`.
 */
export function aimingScript(
  reaches: readonly Reach[],
  layout: ScreenLayout,
  creds: { email: string; password: string },
  seed: number,
  timing: ReachTiming = 'kept',
): string[] {
  const random = mulberry32(seed);
  const between = (lo: number, hi: number) => lo + (hi - lo) * random();
  const { start, targets } = signInLegs(layout, random);
  const script = new HumanScript(seed);
  script.cmd(`mousemove ${start.x} ${start.y}`).sleep(between(400, 900));
  let at = start;
  for (const [i, to] of targets.entries()) {
    const reach = reaches[i % reaches.length]!;
    const carried = carryReach(reach, at, to, timing);
    at = moveAlong(script, carried.moves, at);
    script.sleep(carried.dwellMs);
    script.cmd('mousedown 1').sleep(between(70, 140)).cmd('mouseup 1').sleep(between(150, 400));
    if (i === 0) script.type(creds.email);
    if (i === 1) script.type(creds.password);
  }
  return script.lines;
}
