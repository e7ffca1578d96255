import { aimingPage, personPages } from './aiming/pages.ts';
import { type Reach, readReaches, splitPeople } from './aiming/reaches.ts';
import { COMBINED_TRANSFORMS, DEVICE_TRANSFORMS, type DeviceTransform } from './lib/device-transforms.ts';
import { scoreLogin } from './lib/people-robustness.ts';
import { formatRate } from './lib/wilson.ts';

/**
 * `npm run eval:aiming -- <path-to>/mousetrap-kh2017`: real people aiming at buttons (the KH2017
 * mouse-tracking study, read from the path given; never copied into the repository), three reaches
 * a sign-in page (aiming/pages.ts), delivered as each device would (lib/device-transforms.ts) and
 * scored by the engine as the login of a clean desktop Chrome. People with odd subject numbers are
 * the tuning half, even ones the held-out half: the figures to quote are the held-out ones.
 * Prints per transform the pages sent to review or challenge (friction) and blocked, with Wilson
 * 95 % bounds, and the positive signals behind them. Deterministic; seconds.
 */
const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run eval:aiming -- <path-to>/mousetrap-kh2017 [transform,transform]');
  process.exit(2);
}
const all = [...DEVICE_TRANSFORMS, ...COMBINED_TRANSFORMS];
const only = process.argv[3]?.split(',');
const unknown = only?.filter((id) => !all.some((t) => t.id === id)) ?? [];
if (unknown.length > 0) {
  console.error(`no transform ${unknown.join(', ')}; known: ${all.map((t) => t.id).join(', ')}`);
  process.exit(2);
}
const transforms = all.filter((t) => !only || only.includes(t.id));
const { tuning, heldOut } = splitPeople(readReaches(`${dir}/raw_data.csv.gz`));

function judge(reaches: readonly Reach[], transform: DeviceTransform) {
  const pages = personPages(reaches);
  let friction = 0;
  let blocked = 0;
  const fired = new Map<string, number>();
  for (const [i, page] of pages.entries()) {
    const s = scoreLogin(aimingPage(page, transform, i + 1));
    if (s.action === 'block' || s.classification === 'bot') blocked++;
    else if (s.action !== 'allow') friction++;
    if (s.action === 'allow') continue;
    for (const sig of s.signals) if (sig.score > 0) fired.set(sig.rule, (fired.get(sig.rule) ?? 0) + 1);
  }
  const signals = [...fired.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([rule, n]) => `${rule}×${n}`)
    .join(' ');
  return { pages: pages.length, friction, blocked, signals };
}

const people = (r: readonly Reach[]) => new Set(r.map((x) => x.subject)).size;
console.info(
  `people aiming (KH2017): tuning half ${people(tuning)} people (odd numbers), held-out half ${people(heldOut)} (even); 3 reaches a page`,
);
console.info(
  `\n${'transform'.padEnd(30)} ${'half'.padEnd(8)} ${'review/challenge [95 %]'.padEnd(26)} ${'block or bot [95 %]'.padEnd(24)} signals on pages not allowed`,
);
const total = { pages: 0, friction: 0, blocked: 0 };
for (const t of transforms) {
  for (const [half, reaches] of [
    ['held-out', heldOut],
    ['tuning', tuning],
  ] as const) {
    const r = judge(reaches, t);
    if (half === 'held-out') {
      total.pages += r.pages;
      total.friction += r.friction;
      total.blocked += r.blocked;
    }
    console.info(
      `${(half === 'held-out' ? t.id : '').padEnd(30)} ${half.padEnd(8)} ${formatRate(r.friction, r.pages).padEnd(26)} ${formatRate(r.blocked, r.pages).padEnd(24)} ${r.signals || '-'}`,
    );
  }
}
// The same held-out people on every device: the pages are not independent, so this bound is optimistic.
console.info(
  `\nheld-out, the transforms above pooled: review/challenge ${formatRate(total.friction, total.pages)}, block or bot ${formatRate(total.blocked, total.pages)}`,
);
