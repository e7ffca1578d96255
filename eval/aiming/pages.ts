import type { BehaviorEvidence } from '@warden/protocol';
import type { DeviceTransform } from '../lib/device-transforms.ts';
import { humanHold } from '../lib/human.ts';
import { typeText } from '../lib/input.ts';
import { PageRecorder } from '../lib/recorder.ts';
import { Rng } from '../lib/rng.ts';
import type { Sample } from '../lib/traces.ts';
import type { Reach } from './reaches.ts';

/** Reaches per sign-in page: to the email field, to the password field, to the submit button. */
export const REACHES_PER_PAGE = 3;

/** Characters typed into the fields the first two reaches land on. */
const TYPED = [18, 11];

/** Where the pointer rests when the page opens (whole pixels). */
const PAGE_START = { x: 960, y: 160 } as const;

/**
 * One sign-in page of a person, from `REACHES_PER_PAGE` of their reaches, as the SDK's recorder
 * reports it. Each reach is one leg of the form (to the email field, to the password field, to
 * submit) and keeps its pixels and its times: it is moved (translated) to start where the pointer
 * is, and mirrored so that it runs down the page, the next one back across it (a mirror keeps
 * every distance, angle and pixel step; no rotation, so no rounding of positions). `transform` is
 * the device that delivers the hand's positions (device-transforms.ts), applied before. The
 * trial's wait before moving and its rest on the target before the press are kept; the press is
 * held as people hold buttons, and the fields are typed with person-like keys.
 */
export function aimingPage(
  reaches: readonly Reach[],
  transform: DeviceTransform,
  seed: number,
): BehaviorEvidence {
  const rng = new Rng(seed);
  const rec = new PageRecorder();
  let t = rng.logNormal(1400, 0.4);
  let at: { x: number; y: number } = PAGE_START;
  let submit = t;
  for (const [i, reach] of reaches.entries()) {
    const delivered = transform.apply(reach.moves, seed * 31 + i);
    const first = delivered[0];
    if (!first) continue;
    const mirrorX = i % 2 === 0 ? 1 : -1;
    const place = ([mt, x, y]: Sample): Sample => [
      t + mt,
      at.x + mirrorX * (x - first[1]),
      at.y - (y - first[2]),
    ];
    // The first position is where the pointer already rests: not a move event.
    const placed = delivered.slice(1).map(place);
    rec.move(placed);
    const rest = placed[placed.length - 1] ?? place(first);
    const pressT = Math.max(t + reach.press[0], rest[0] + 1);
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
