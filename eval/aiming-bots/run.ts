import type { BehaviorEvidence } from '@warden/protocol';
import { behaviorMetrics } from '../../packages/server/src/scoring/behavior-metrics.ts';
import { swelledPage } from '../../packages/server/src/scoring/reach-swell.ts';
import type { ReachTiming } from '../aiming/carry.ts';
import type { Reach } from '../aiming/reaches.ts';
import type { DesktopStyle } from '../browsers/desktop-input.ts';
import { DEVICE_TRANSFORMS } from '../lib/device-transforms.ts';
import { scoreLogin } from '../lib/people-robustness.ts';
import { formatRate as share } from '../lib/wilson.ts';
import { personPage, readReaches, scriptedPage } from './pages.ts';

/**
 * `npm run eval:aiming-bots -- <path-to>/mousetrap-kh2017/raw_data.csv.gz [--pages N] [--half odd|even]`
 *
 * Sign-in pages as the SDK records them (eval/aiming/pages.ts), scored as a clean desktop Chrome
 * login by the default rule set: per path library, the share of pages `mouse_reaches_unshaped`,
 * `mouse_reaches_one_pace`, `mouse_reaches_unbraked` and `mouse_reaches_untailed` catch and the share not allowed; for people, the share either flags
 * and the share with friction (review or worse) or blocked. Besides, unscored: the share whose reaches'
 * primaries follow one sinusoidal swell (`reach_swell`'s residual alone, reach-swell.ts:
 * NaturalMouseMotion's deviation); and the share `mouse_reaches_swelled` catches (signals/reach-swell.ts:
 * that swell, a long final approach and a primary ended to the side, the server's measurement). People: the replayed circles_human_pc1 of eval:browsers, and the
 * mouse-tracking study's people of one half of the subjects (default even subject numbers: the
 * tell was tuned on the odd ones), their reaches timed as recorded and by Fitts' law, as recorded
 * and through eval:people's device transforms. Wilson 95 % bounds.
 */
const UNSHAPED = 'mouse_reaches_unshaped';
const ONE_PACE = 'mouse_reaches_one_pace';
const UNBRAKED = 'mouse_reaches_unbraked';
const UNTAILED = 'mouse_reaches_untailed';
const CUBIC = 'mouse_reach_cubic';
const CUBICS = 'mouse_reaches_cubic';
const SWELLED = 'mouse_reaches_swelled';
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
};
const pages = Number(option('pages', '200'));
const half = option('half', 'even');
if (!Number.isInteger(pages) || pages < 1 || (half !== 'odd' && half !== 'even')) {
  console.error('usage: npm run eval:aiming-bots -- <raw_data.csv.gz> [--pages N ≥ 1] [--half odd|even]');
  process.exit(2);
}
const mousetrap = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));

interface Tally {
  n: number;
  unshaped: number;
  onePace: number;
  unbraked: number;
  untailed: number;
  cubic: number;
  /** Pages `mouse_reaches_swelled` caught (swell, long final approach, false target). */
  swelledTell: number;
  /** Pages whose primaries follow one swell (swelledPage; unscored). */
  swelled: number;
  /** Pages any aiming tell flagged. */
  tell: number;
  notAllowed: number;
  blocked: number;
}
function tally(evidences: Iterable<BehaviorEvidence>): Tally {
  const t: Tally = {
    n: 0,
    unshaped: 0,
    onePace: 0,
    unbraked: 0,
    untailed: 0,
    cubic: 0,
    swelledTell: 0,
    swelled: 0,
    tell: 0,
    notAllowed: 0,
    blocked: 0,
  };
  for (const ev of evidences) {
    const s = scoreLogin(ev);
    const fired = (rule: string) => s.signals.some((x) => x.rule === rule);
    t.n++;
    if (fired(UNSHAPED)) t.unshaped++;
    if (fired(ONE_PACE)) t.onePace++;
    if (fired(UNBRAKED)) t.unbraked++;
    if (fired(UNTAILED)) t.untailed++;
    if (fired(CUBIC) || fired(CUBICS)) t.cubic++;
    if ([UNSHAPED, ONE_PACE, UNBRAKED, UNTAILED, CUBIC, CUBICS, SWELLED].some(fired)) t.tell++;
    if (swelledPage(behaviorMetrics(ev).reach_swell)) t.swelled++;
    if (fired(SWELLED)) t.swelledTell++;
    if (s.action !== 'allow') t.notAllowed++;
    if (s.action === 'block' || s.classification === 'bot') t.blocked++;
  }
  return t;
}
const row = (label: string, cells: string[]) => console.log(`${label.padEnd(34)} ${cells.join('  ')}`);

console.log(
  `\n== Path libraries on the form (xdotool scripts of eval:browsers, person-like keys), ${pages} pages each`,
);
row('library', [
  'mouse_reaches_unshaped'.padEnd(32),
  'mouse_reaches_one_pace'.padEnd(32),
  'mouse_reaches_unbraked'.padEnd(32),
  'mouse_reaches_untailed'.padEnd(32),
  'mouse_reach(es)_cubic'.padEnd(32),
  'not allowed'.padEnd(32),
  'reach_swell (unscored)'.padEnd(32),
  'mouse_reaches_swelled'.padEnd(32),
]);
const LIBRARIES: DesktopStyle[] = ['ghost', 'windmouse', 'humanize', 'nmm'];
for (const style of LIBRARIES) {
  const evs: BehaviorEvidence[] = [];
  for (let seed = 1; seed <= pages; seed++) evs.push(await scriptedPage(style, 1000 * seed + 17));
  const t = tally(evs);
  row(style, [
    share(t.unshaped, t.n),
    share(t.onePace, t.n),
    share(t.unbraked, t.n),
    share(t.untailed, t.n),
    share(t.cubic, t.n),
    share(t.notAllowed, t.n),
    share(t.swelled, t.n),
    share(t.swelledTell, t.n),
  ]);
}

console.log(
  `\n== People (flagged by any aiming tell / review or worse / block or bot / mouse_reach(es)_cubic / primaries in one swell, unscored / mouse_reaches_swelled)`,
);
{
  const evs: BehaviorEvidence[] = [];
  for (let seed = 1; seed <= pages; seed++) evs.push(await scriptedPage('human', 1000 * seed + 17));
  const t = tally(evs);
  row('circles_human_pc1 replayed', [
    share(t.tell, t.n),
    share(t.notAllowed, t.n),
    share(t.blocked, t.n),
    share(t.cubic, t.n),
    share(t.swelled, t.n),
    share(t.swelledTell, t.n),
  ]);
}
if (!mousetrap) {
  console.log('\n(no mouse-tracking data given: pass <path-to>/mousetrap-kh2017/raw_data.csv.gz)');
} else {
  const reaches = readReaches(mousetrap).filter((r) => r.subject % 2 === (half === 'odd' ? 1 : 0));
  const subjects = new Set(reaches.map((r) => r.subject));
  console.log(
    `mouse-tracking study, ${half} subjects: ${subjects.size} people, ${reaches.length} reaches, 3 a page`,
  );
  for (const timing of ['kept', 'fitts'] as ReachTiming[]) {
    for (const transform of DEVICE_TRANSFORMS) {
      const evs: BehaviorEvidence[] = [];
      let seed = 0;
      for (const subject of subjects) {
        const own = reaches.filter((r) => r.subject === subject);
        for (let i = 0; i + 3 <= own.length; i += 3) {
          seed++;
          const moved: Reach[] = own.slice(i, i + 3).map((r, k) => ({
            ...r,
            moves: transform.apply(r.moves, seed * 7 + k),
          }));
          if (moved.some((r) => r.moves.length < 2)) continue;
          evs.push(personPage(moved, seed, timing));
        }
      }
      const t = tally(evs);
      row(`${timing} time, ${transform.id}`, [
        share(t.tell, t.n),
        share(t.notAllowed, t.n),
        share(t.blocked, t.n),
        share(t.cubic, t.n),
        share(t.swelled, t.n),
        share(t.swelledTell, t.n),
      ]);
    }
  }
}
