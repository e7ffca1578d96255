import { behaviorMetrics } from '../../packages/server/src/scoring/behavior-metrics.ts';
import { behavior } from '../../packages/server/src/scoring/signals/behavior.ts';
import {
  inhumanKeyDwell,
  input,
  superhumanKeySpeed,
  uniformKeyRhythm,
} from '../../packages/server/src/scoring/signals/input.ts';
import { keyFeatures } from '../../packages/server/src/testing/key-samples.ts';
import { mulberry32 } from '../../packages/server/src/testing/rng.ts';
import { scoreLogin } from '../lib/people-robustness.ts';
import { gaussian, humanised, humanScript, loadedXdotool, xdotool } from './script-typing.ts';
import { aaltoPages, cmuPages, type Page, readTexts, samples } from './typist-pages.ts';

/**
 * `npm run eval:typists -- --aalto <file or dir> --cmu <file>`: Warden's key-timing tells on real people's
 * typing (public keystroke data sets, not shipped: see eval/README.md "Real typists"), and shape
 * statistics that might tell people from scripts that type with random delays.
 *
 * Pages are desktop logins whose behaviour evidence holds only key samples as the SDK sends them
 * ([t_down, hold], 0.1 ms; every key, modifiers too, as the SDK records them), built as the
 * key-floor tests build theirs (`keyFeatures`). The tells are the engine's own: the input and
 * behaviour families' `evaluate`, and the whole decision's risk (`scoreLogin`, every default family).
 */

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

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
    console.error(
      'usage: npm run eval:typists -- --aalto <file or directory of *_keystrokes.txt> --cmu <DSL-StrongPasswordData.csv>',
    );
    process.exit(2);
  }
  const random = mulberry32(2026);
  const real = new Map<string, Array<Record<Stat, number>>>();
  const scripts = new Map<string, Array<Record<Stat, number>>>();
  console.info('# Warden key tells on real typists (eval/keys/real-typists.ts)');
  if (aalto) {
    const byPerson = aaltoPages(readTexts(aalto), random);
    const pages = [...byPerson.values()].flat();
    const labels = [...byPerson].flatMap(([p, ps]) => ps.map((_, i) => `aalto ${p} window ${i}`));
    real.set('Aalto', report(`Aalto 136M (${byPerson.size} participants; ${aalto})`, pages, labels));
  }
  if (cmu) {
    const bySubject = cmuPages(readTexts(cmu).join('\n'), random);
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
