import type { BehaviorEvidence } from '@warden/protocol';
import type { DeviceTransform } from '../lib/device-transforms.ts';
import { humanHold } from '../lib/human.ts';
import { typeText } from '../lib/input.ts';
import { PageRecorder } from '../lib/recorder.ts';
import { Rng } from '../lib/rng.ts';
import type { Sample } from '../lib/traces.ts';
import {
  carryReach,
  type Point,
  REACHES_PER_PAGE,
  type ReachTiming,
  SHOP_LAYOUT,
  signInLegs,
} from './carry.ts';
import type { Reach } from './reaches.ts';

export { REACHES_PER_PAGE };

/** Characters typed into the fields the first two reaches land on. */
const TYPED = [18, 11];

/**
 * One sign-in page of a person, from `REACHES_PER_PAGE` of their reaches, as the SDK's recorder
 * reports it. `transform` is the device that delivers the hand's positions (device-transforms.ts),
 * applied first; each reach is then carried onto a leg of the shop's form (carry.ts: from where the
 * pointer rests to the email field, the password field, the submit button; rotated and scaled in
 * floating point, rounded once by the recorder), timed by `timing`. The trial's rest on the target
 * before the press is kept; the press is held as people hold buttons, and the fields are typed with
 * person-like keys.
 */
export function aimingPage(
  reaches: readonly Reach[],
  transform: DeviceTransform,
  seed: number,
  timing: ReachTiming = 'kept',
): BehaviorEvidence {
  const rng = new Rng(seed);
  const rec = new PageRecorder();
  const { x: left, y: top } = SHOP_LAYOUT.content;
  const legs = signInLegs(SHOP_LAYOUT, () => rng.next());
  const page = (p: Point): Point => ({ x: p.x - left, y: p.y - top });
  let t = rng.logNormal(1400, 0.4);
  let at = page(legs.start);
  let submit = t;
  for (const [i, reach] of reaches.slice(0, REACHES_PER_PAGE).entries()) {
    const delivered = transform.apply(reach.moves, seed * 31 + i);
    if (delivered.length < 2) continue;
    const carried = carryReach({ moves: delivered, press: reach.press }, at, page(legs.targets[i]!), timing);
    // The first position is where the pointer already rests: not a move event.
    const placed = carried.moves.slice(1).map(([mt, x, y]): Sample => [t + mt, x, y]);
    rec.move(placed);
    const rest = placed[placed.length - 1]!;
    const pressT = rest[0] + Math.max(1, carried.dwellMs);
    const hold = humanHold(rng);
    rec.click(pressT, rest[1], rest[2], 0, hold);
    at = { x: rest[1], y: rest[2] };
    t = pressT + hold;
    const chars = TYPED[i] ?? 0;
    if (chars > 0) {
      rec.field('typed', chars);
      t = typeText(rec, rng, t + rng.logNormal(350, 0.4), chars, { kind: 'human-desktop' });
      t += rng.logNormal(450, 0.6);
    } else {
      submit = t + rng.uniform(5, 30);
    }
  }
  return rec.snapshot(submit);
}

/** A person's reaches in trial order, cut into pages of REACHES_PER_PAGE (a short remainder dropped). */
export function personPages(reaches: readonly Reach[]): Reach[][] {
  const bySubject = new Map<number, Reach[]>();
  for (const r of reaches) bySubject.set(r.subject, [...(bySubject.get(r.subject) ?? []), r]);
  const pages: Reach[][] = [];
  for (const subject of [...bySubject.keys()].sort((a, b) => a - b)) {
    const own = bySubject.get(subject)!.sort((a, b) => a.trial - b.trial);
    for (let i = 0; i + REACHES_PER_PAGE <= own.length; i += REACHES_PER_PAGE)
      pages.push(own.slice(i, i + REACHES_PER_PAGE));
  }
  return pages;
}
