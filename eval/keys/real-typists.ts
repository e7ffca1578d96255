import { readFileSync } from 'node:fs';
import { HumanScript } from '../../e2e/support/human-input.ts';
import { behaviorMetrics } from '../../packages/server/src/scoring/behavior-metrics.ts';
import { FLOOR_CHORD_MS } from '../../packages/server/src/scoring/input-metrics.ts';
import { behavior } from '../../packages/server/src/scoring/signals/behavior.ts';
import {
  inhumanKeyDwell,
  input,
  superhumanKeySpeed,
  uniformKeyRhythm,
} from '../../packages/server/src/scoring/signals/input.ts';
import {
  type KeySample,
  keyFeatures,
  LOADED_XDOTOOL,
  r1,
  scriptKeys,
} from '../../packages/server/src/testing/key-samples.ts';
import { mulberry32 } from '../../packages/server/src/testing/rng.ts';
import { scoreLogin } from '../lib/people-robustness.ts';

/**
 * `npm run eval:typists -- --aalto <file> --cmu <file>`: Warden's key-timing tells on real people's
 * typing (public keystroke data sets, not shipped: see eval/README.md "Real typists"), and shape
 * statistics that might tell people from scripts that type with random delays.
 *
 * Pages are desktop logins whose behaviour evidence holds only key samples as the SDK sends them
 * ([t_down, hold], 0.1 ms; every key, modifiers too, as the SDK records them), built as the
 * key-floor tests build theirs (`keyFeatures`). The tells are the engine's own: the input and
 * behaviour families' `evaluate`, and the whole decision's risk (`scoreLogin`, every default family).
 */

/** One key: down time and hold (ms), and whether it is a modifier (known by name, or by its chord). */
interface Key {
  down: number;
  hold: number;
  modifier: boolean;
}
type Page = Key[];

const MODIFIERS = new Set([
  'SHIFT',
  'CTRL',
  'CONTROL',
  'ALT',
  'META',
  'CAPS_LOCK',
  'CAPSLOCK',
  'ALTGR',
  'WIN',
]);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Keys from t0 = 1000 ms, as the SDK would send them. */
function rebase(keys: Page): Page {
  const t0 = keys[0]?.down ?? 0;
  return keys.map((k) => ({ ...k, down: k.down - t0 + 1000 }));
}

/**
 * Aalto "136M keystrokes" (TSV: participant, section, press, release, letter; ms timestamps):
 * consecutive windows of 25–40 keystrokes of one participant, across sentences (the pause between
 * two sentences stands for the move between two fields).
 */
export function aaltoPages(text: string, random: () => number): Map<string, Page[]> {
  const byPerson = new Map<string, Page>();
  for (const line of text.split('\n').slice(1)) {
    if (line.trim() === '') continue;
    const [person, , press, release, letter] = line.split('\t');
    const down = Number(press);
    const hold = Number(release) - down;
    if (!Number.isFinite(down) || !Number.isFinite(hold) || hold < 0) continue;
    const keys = byPerson.get(person!) ?? [];
    keys.push({ down, hold, modifier: MODIFIERS.has((letter ?? '').toUpperCase()) });
    byPerson.set(person!, keys);
  }
  const pages = new Map<string, Page[]>();
  for (const [person, keys] of byPerson) {
    keys.sort((a, b) => a.down - b.down);
    const out: Page[] = [];
    let i = 0;
    for (;;) {
      const n = 25 + Math.floor(random() * 16);
      if (i + n > keys.length) break;
      out.push(rebase(keys.slice(i, i + n)));
      i += n;
    }
    pages.set(person, out);
  }
  return pages;
}

/**
 * CMU keystroke benchmark (compact CSV: subject, session, rep, then H.period, DD.period.t, H.t, …,
 * DD.l.Return, H.Return in ms): 2–3 consecutive repetitions of ".tie5Roanl⏎" by one subject, the
 * next repetition's first key-down 1–2 s after the previous Return's. Shift-r is one key (R): the
 * data set times the R, not the Shift.
 */
export function cmuPages(text: string, random: () => number): Map<string, Page[]> {
  const runs = new Map<string, number[][]>();
  let last = '';
  let run: number[][] = [];
  for (const line of text.split('\n').slice(1)) {
    if (line.trim() === '') continue;
    const [subject, session, rep, ...rest] = line.split(',');
    const v = rest.map(Number);
    if (v.length !== 21 || v.some((x) => !Number.isFinite(x))) continue;
    const key = `${subject}/${session}`;
    if (key !== last || run.length === 0) {
      run = [];
      runs.set(`${key}/${rep}`, run);
      last = key;
    }
    run.push(v);
  }
  const pages = new Map<string, Page[]>();
  for (const [key, reps] of runs) {
    const subject = key.split('/')[0]!;
    const out = pages.get(subject) ?? [];
    let i = 0;
    for (;;) {
      const n = random() < 0.5 ? 2 : 3;
      if (i + n > reps.length) break;
      const keys: Page = [];
      let t = 1000;
      for (const [r, v] of reps.slice(i, i + n).entries()) {
        if (r > 0) t += 1000 + random() * 1000;
        for (let k = 0; k < 11; k++) {
          keys.push({ down: t, hold: v[2 * k]!, modifier: false });
          if (k < 10) t += v[2 * k + 1]!;
        }
      }
      out.push(keys);
      i += n;
    }
    pages.set(subject, out);
  }
  return pages;
}

/** Key samples as the SDK sends them: in the order the keys were released (it records a key at its keyup). */
const samples = (page: Page): KeySample[] =>
  [...page].sort((a, b) => a.down + a.hold - (b.down + b.hold)).map((k) => [r1(k.down), r1(k.hold)]);

// ---------------------------------------------------------------- script typing, seeded

/** Page sizes like the real pages' (22–40 keys), typed into two fields with a 0.4–1.5 s move between. */
function scriptPages(
  seed: number,
  count: number,
  key: (random: () => number) => { hold: number; next: number },
): Page[] {
  const random = mulberry32(seed);
  const pages: Page[] = [];
  for (let p = 0; p < count; p++) {
    const n = 22 + Math.floor(random() * 19);
    const field = Math.floor(n * (0.35 + random() * 0.3));
    const keys: Page = [];
    let t = 1000;
    for (let i = 0; i < n; i++) {
      if (i === field) t += 400 + random() * 1100;
      const { hold, next } = key(random);
      keys.push({ down: t, hold, modifier: false });
      t += next;
    }
    pages.push(keys);
  }
  return pages;
}

const gauss = (random: () => number) =>
  Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/** (a) A "humanised" script: each key held U(30, 90) ms, U(50, 180) ms from release to the next press. */
const humanised = (seed: number, count: number) =>
  scriptPages(seed, count, (random) => {
    const hold = 30 + random() * 60;
    return { hold, next: hold + 50 + random() * 130 };
  });

/**
 * (b) `xdotool type --delay 90`: key down, sleep 45 ms, key up, sleep 45 ms; each sleep overruns by
 * 0–2 ms (idle) or, on a busy machine, three in five by 0–2 ms and the rest by 5–60 ms (the
 * key-floor tests' model).
 */
const xdotool = (seed: number, count: number, busy: boolean) =>
  scriptPages(seed, count, (random) => {
    const late = () => (!busy || random() < 0.6 ? random() * 2 : 5 + random() * 55);
    const hold = 45 + late();
    return { hold, next: hold + 45 + late() };
  });

/** (b') The real loaded `xdotool type --delay 90` visit (LOADED_XDOTOOL): windows of 25–40 of its keys. */
function loadedXdotool(): Page[] {
  const keys = LOADED_XDOTOOL.keys;
  const all: Page = keys.map((k, i) => ({
    down: k[0]!,
    hold: k[1]!,
    // No key names: a key whose next key goes down within a chord is its modifier.
    modifier: i + 1 < keys.length && keys[i + 1]![0]! - k[0]! < FLOOR_CHORD_MS,
  }));
  const pages: Page[] = [];
  for (const n of [25, 30, 35, 40])
    for (let i = 0; i + n <= all.length; i += 4) pages.push(rebase(all.slice(i, i + n)));
  return pages;
}

/**
 * (c) Warden's e2e person model, `HumanScript.type`: a typist drawn per page (log-normal key-down
 * gaps, median U(150, 300) ms, log-σ U(0.45, 0.8), 35 ms or more; log-normal holds, median
 * U(70, 120) ms, log-σ U(0.15, 0.3); keys roll over where a gap is shorter than the previous
 * hold), typing lower-case letters (no Shift) into two fields, converted as the e2e tests do
 * (`scriptKeys`, release order; sorted by down time here, as the engine does).
 */
function humanScript(seed: number, count: number): Page[] {
  const random = mulberry32(seed);
  const pages: Page[] = [];
  for (let p = 0; p < count; p++) {
    const n = 22 + Math.floor(random() * 19);
    const field = Math.floor(n * (0.35 + random() * 0.3));
    const letters = (k: number) =>
      Array.from({ length: k }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
    const s = new HumanScript(seed * 1000 + p);
    s.type(letters(field))
      .sleep(400 + random() * 1100)
      .type(letters(n - field));
    pages.push(
      rebase(
        scriptKeys(s.lines)
          .map(([down, hold]) => ({ down: down!, hold: hold!, modifier: false }))
          .sort((a, b) => a.down - b.down),
      ),
    );
  }
  return pages;
}

/** (d) Gaussian delays: key-down to key-down N(150, 30) ms, holds N(75, 15) ms (at least 20, and 5 under the gap). */
const gaussian = (seed: number, count: number) =>
  scriptPages(seed, count, (random) => {
    const hold = Math.max(20, 75 + 15 * gauss(random));
    return { hold, next: Math.max(hold + 5, 150 + 30 * gauss(random)) };
  });

// ---------------------------------------------------------------- statistics

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

const mean = (v: readonly number[]) => v.reduce((s, x) => s + x, 0) / v.length;
const sd = (v: readonly number[]) => {
  const m = mean(v);
  return Math.sqrt(v.reduce((s, x) => s + (x - m) ** 2, 0) / v.length);
};

/** Candidate shape statistics of one page, over its non-modifier keys. */
export function shape(page: Page): Record<Stat, number> {
  const keys = page.filter((k) => !k.modifier).sort((a, b) => a.down - b.down);
  const dd: number[] = [];
  let rollover = 0;
  for (let i = 1; i < keys.length; i++) {
    dd.push(keys[i]!.down - keys[i - 1]!.down);
    if (keys[i]!.down < keys[i - 1]!.down + keys[i - 1]!.hold) rollover++;
  }
  const sorted = [...dd].sort((a, b) => a - b);
  const p50 = quantile(sorted, 0.5);
  const holds = keys.map((k) => k.hold);
  const logs = dd.filter((d) => d > 0).map(Math.log);
  return {
    'DD p90/p50': quantile(sorted, 0.9) / p50,
    'DD max/p50': sorted[sorted.length - 1]! / p50,
    rollover: rollover / dd.length,
    'hold CV': sd(holds) / mean(holds),
    'log-σ DD': sd(logs),
  };
}

const STATS = ['DD p90/p50', 'DD max/p50', 'rollover', 'hold CV', 'log-σ DD'] as const;
type Stat = (typeof STATS)[number];

const KEY_TELLS = [
  'key_rhythm_uniform',
  'key_speed_superhuman',
  'key_dwell_inhuman',
  'timing_regular',
] as const;

interface Judged {
  tells: Set<string>;
  floor: number | null;
  /** The floor's share in each set (key-down gaps, holds). */
  floorEach: { gap: number; hold: number } | null;
  spread: number | null;
  speed: { gap: number; hold: number } | null;
  risk: number;
  positive: string[];
}

/** The engine's key tells on one page (the families' own evaluate), and the whole decision's risk. */
export function judge(page: Page): Judged {
  const keys = samples(page);
  const f = keyFeatures(keys);
  const fired = new Set([...input.evaluate(f), ...behavior.evaluate(f)].map((s) => s.rule));
  const tells = new Set<string>(KEY_TELLS.filter((t) => fired.has(t)));
  // Cross-check with the tells' own predicates (the family emits each once).
  if (uniformKeyRhythm(f) !== null) tells.add('key_rhythm_uniform');
  if (superhumanKeySpeed(f)) tells.add('key_speed_superhuman');
  if (inhumanKeyDwell(f)) tells.add('key_dwell_inhuman');
  const scored = scoreLogin({
    v: 1,
    key_samples: keys.map((k): [number, number] => [k[0]!, k[1]!]),
    key_presses: keys.length,
    mouse_moves: 60,
  });
  const b = behaviorMetrics({ v: 1, key_samples: keys, key_presses: keys.length });
  return {
    tells,
    floor: b.key_floor?.share ?? null,
    floorEach: b.key_floor ? { gap: b.key_floor.gap_share, hold: b.key_floor.hold_share } : null,
    spread: b.key_rhythm_spread,
    speed: b.key_speed ? { gap: b.key_speed.gap_median, hold: b.key_speed.hold_median } : null,
    risk: scored.risk,
    positive: scored.signals.filter((s) => s.score > 0).map((s) => s.rule),
  };
}

const fmt = (v: number) => (Number.isFinite(v) ? (Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(3)) : '—');

function report(name: string, pages: Page[], labels?: string[]): Array<Record<Stat, number>> {
  const judged = pages.map(judge);
  console.info(`\n## ${name}: ${pages.length} pages, ${pages.reduce((s, p) => s + p.length, 0)} keys`);
  const tellCounts = KEY_TELLS.map((t) => `${t} ${judged.filter((j) => j.tells.has(t)).length}`);
  console.info(`  key tells fired: ${tellCounts.join(', ')}`);
  const risks = judged.map((j) => j.risk).sort((a, b) => a - b);
  const positives = new Map<string, number>();
  for (const j of judged) for (const r of j.positive) positives.set(r, (positives.get(r) ?? 0) + 1);
  console.info(
    `  risk (whole decision, keys only on the page): median ${quantile(risks, 0.5)}, max ${risks[risks.length - 1]}; positive signals: ${
      [...positives].map(([r, n]) => `${r} ${n}`).join(', ') || 'none'
    }`,
  );
  const floors = judged.flatMap((j) => (j.floor === null ? [] : [j.floor])).sort((a, b) => a - b);
  const each = judged.flatMap((j) => (j.floorEach === null ? [] : [j.floorEach]));
  const maxOf = (v: number[]) => (v.length > 0 ? Math.max(...v) : Number.NaN);
  const spreads = judged.flatMap((j) => (j.spread === null ? [] : [j.spread])).sort((a, b) => a - b);
  const gaps = judged.flatMap((j) => (j.speed === null ? [] : [j.speed.gap])).sort((a, b) => a - b);
  const holds = judged.flatMap((j) => (j.speed === null ? [] : [j.speed.hold])).sort((a, b) => a - b);
  console.info(
    `  floor share (judged ${floors.length}): median ${fmt(quantile(floors, 0.5))}, max ${fmt(floors[floors.length - 1] ?? Number.NaN)} (gaps max ${fmt(maxOf(each.map((e) => e.gap)))}, holds max ${fmt(maxOf(each.map((e) => e.hold)))}); ` +
      `MAD/median spread: min ${fmt(spreads[0] ?? Number.NaN)}; median gap min ${fmt(gaps[0] ?? Number.NaN)} ms, median hold min ${fmt(holds[0] ?? Number.NaN)} ms`,
  );
  // Every page a tell fired on, for the real people only (labelled).
  for (const [i, j] of judged.entries())
    if (labels && j.tells.size > 0)
      console.info(
        `    fired on ${labels[i]}: ${[...j.tells].join(', ')} (floor ${fmt(j.floor ?? Number.NaN)}: gaps ${fmt(j.floorEach?.gap ?? Number.NaN)}, holds ${fmt(j.floorEach?.hold ?? Number.NaN)}; spread ${fmt(j.spread ?? Number.NaN)}, gap/hold medians ${j.speed ? `${j.speed.gap}/${j.speed.hold}` : '—'}, risk ${j.risk})`,
      );
  const shapes = pages.map(shape);
  console.info(
    `  ${'statistic'.padEnd(12)} ${['min', 'p1', 'p5', 'median', 'p95', 'p99', 'max'].map((h) => h.padStart(7)).join(' ')}`,
  );
  for (const s of STATS) {
    const v = shapes
      .map((x) => x[s])
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const row = [0, 0.01, 0.05, 0.5, 0.95, 0.99, 1].map((q) => fmt(quantile(v, q)).padStart(7));
    const zero = s === 'rollover' ? `   (${v.filter((x) => x === 0).length} pages at 0)` : '';
    console.info(`  ${s.padEnd(12)} ${row.join(' ')}${zero}`);
  }
  return shapes;
}

/** Per statistic: the lowest value of any real page against the highest of any script page. */
function margins(
  title: string,
  real: Map<string, Array<Record<Stat, number>>>,
  scripts: Map<string, Array<Record<Stat, number>>>,
) {
  console.info(
    `\n## Margins, ${title}: lowest real-people page vs highest script page (margin > 0: a threshold between them flags no person)`,
  );
  for (const s of STATS) {
    const low = [...real].map(
      ([n, v]) => [n, Math.min(...v.map((x) => x[s]).filter(Number.isFinite))] as const,
    );
    const high = [...scripts].map(
      ([n, v]) => [n, Math.max(...v.map((x) => x[s]).filter(Number.isFinite))] as const,
    );
    const realMin = low.reduce((a, b) => (b[1] < a[1] ? b : a));
    const scriptMax = high.reduce((a, b) => (b[1] > a[1] ? b : a));
    // Real pages a threshold at the scripts' highest value would flag (at or under it).
    const under = [...real].map(
      ([n, v]) => `${n} ${v.filter((x) => x[s] <= scriptMax[1]).length}/${v.length}`,
    );
    console.info(
      `  ${s.padEnd(12)} real min ${low.map(([n, v]) => `${n} ${fmt(v)}`).join(', ')}; script max ${fmt(scriptMax[1])} (${scriptMax[0]}); margin ${fmt(realMin[1] - scriptMax[1])}; real pages at or under it: ${under.join(', ')}`,
    );
  }
}

function main(): void {
  const aalto = arg('aalto');
  const cmu = arg('cmu');
  if (!aalto && !cmu) {
    console.error('usage: npm run eval:typists -- --aalto <aalto-sample.tsv> --cmu <cmu-sample.csv>');
    process.exit(2);
  }
  const random = mulberry32(2026);
  const real = new Map<string, Array<Record<Stat, number>>>();
  const scripts = new Map<string, Array<Record<Stat, number>>>();
  console.info('# Warden key tells on real typists (eval/keys/real-typists.ts)');
  if (aalto) {
    const byPerson = aaltoPages(readFileSync(aalto, 'utf8'), random);
    const pages = [...byPerson.values()].flat();
    const labels = [...byPerson].flatMap(([p, ps]) => ps.map((_, i) => `aalto ${p} window ${i}`));
    real.set('Aalto', report(`Aalto 136M (${byPerson.size} participants; ${aalto})`, pages, labels));
  }
  if (cmu) {
    const bySubject = cmuPages(readFileSync(cmu, 'utf8'), random);
    const pages = [...bySubject.values()].flat();
    const labels = [...bySubject].flatMap(([s, ps]) => ps.map((_, i) => `cmu ${s} page ${i}`));
    real.set('CMU', report(`CMU benchmark (${bySubject.size} subjects; ${cmu})`, pages, labels));
  }
  scripts.set(
    'a',
    report('(a) humanised script: hold U(30,90), release→press U(50,180)', humanised(11, 300)),
  );
  scripts.set('b idle', report('(b) xdotool type --delay 90, idle (generated)', xdotool(12, 300, false)));
  scripts.set('b busy', report('(b) xdotool type --delay 90, busy (generated)', xdotool(13, 300, true)));
  scripts.set(
    "b' loaded",
    report("(b') xdotool type --delay 90, real loaded visit (LOADED_XDOTOOL windows)", loadedXdotool()),
  );
  scripts.set(
    'c',
    report(
      '(c) HumanScript.type: log-normal gap (median 150–300, σ 0.45–0.8), hold (median 70–120, σ 0.15–0.3), rollover',
      humanScript(14, 300),
    ),
  );
  scripts.set('d', report('(d) Gaussian: key-down gap N(150,30), hold N(75,15)', gaussian(15, 300)));
  if (real.size > 0) {
    margins('every script', real, scripts);
    const random = new Map([...scripts].filter(([k]) => ['a', 'c', 'd'].includes(k)));
    margins('random-delay scripts (a, c, d)', real, random);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
