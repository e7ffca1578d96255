import type { BehaviorEvidence } from '@warden/protocol';
import { loadTraces, withoutJumps } from '../../e2e/support/human-input.ts';
import { type ReachTiming, SHOP_LAYOUT } from '../aiming/carry.ts';
import { type Reach, readReaches as readStudyReaches } from '../aiming/reaches.ts';
import { aimingScript } from '../aiming/script.ts';
import { type DesktopStyle, desktopScript } from '../browsers/desktop-input.ts';
import { recordScript } from './virtual-desktop.ts';

/**
 * Sign-in pages as the SDK records them, built offline: the benchmark's own xdotool scripts
 * (eval/browsers/desktop-input.ts: the npm path libraries with person-like keys, and the replayed
 * person) run on a virtual desktop, and people's aimed reaches from a mouse-tracking study carried
 * onto the same form's legs.
 */

export { SHOP_LAYOUT };

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

/**
 * The study's reaches (eval/aiming/reaches.ts reads `raw_data.csv.gz` from where it lies, never
 * copied; positions that did not change fire no pointer event and are dropped) with five or more
 * pointer events.
 */
export function readReaches(file: string): Reach[] {
  return readStudyReaches(file).filter((r) => r.moves.length >= 5);
}

/**
 * A sign-in page of one person as the SDK records it: three of their reaches carried onto the
 * form's legs (eval/aiming/script.ts, the script eval:browsers replays), on the virtual desktop.
 */
export function personPage(
  reaches: readonly Reach[],
  seed: number,
  timing: ReachTiming = 'kept',
): BehaviorEvidence {
  return recordScript(aimingScript(reaches, SHOP_LAYOUT, CREDS, seed, timing), SHOP_LAYOUT);
}
