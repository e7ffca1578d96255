/**
 * CPU per page of `behaviorMetrics` (packages/server/src/scoring/behavior-metrics.ts) over the
 * sign-in pages recorded in real chromium (signals/fixtures/xdotool-paths*.json: ghost-cursor,
 * WindMouse, @extra/humanize, NaturalMouseMotion, replayed people), as the SDK sends them.
 *
 *   npm run bench:behavior-metrics -- [--against <another checkout's behavior-metrics.ts>] [--rounds 12] [--reps 300]
 *
 * With `--against`, the two implementations are timed in the same process, round by round in
 * alternation (so a change of load falls on both), and their outputs are checked to be equal on
 * every page. Prints the median over rounds of CPU µs per page (user + system, this thread) and the
 * median of the per-round ratios. Also the cost of one `aimedReachSpans` pass per page (the path read).
 *
 * Instructions, whatever the machine's load: `--only this` (or `--only against`) times that one
 * alone, one round without warm-up; run it under `valgrind --tool=callgrind node --import tsx …`
 * with `--reps N` and with `--reps 0` (both load both modules and check the outputs): the
 * difference of the totals over N × the pages is the instructions per page.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { aimedReachSpans } from '../packages/server/src/scoring/aimed-reaches.ts';
import { behaviorMetrics } from '../packages/server/src/scoring/behavior-metrics.ts';
import { readMousePath } from '../packages/server/src/scoring/mouse-path.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback?: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
};
const rounds = Number(option('rounds', '12'));
const reps = Number(option('reps', '300'));
const against = option('against');
const only = option('only');
if ((only !== undefined && only !== 'this' && only !== 'against') || (only === 'against' && !against)) {
  console.error('--only is `this` or `against` (with --against)');
  process.exit(2);
}
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(reps) || reps < (only ? 0 : 1)) {
  console.error('usage: bench/behavior-metrics.ts [--against <behavior-metrics.ts>] [--rounds N] [--reps N]');
  process.exit(2);
}

interface Session {
  mouse: number[][];
  clicks: number[][];
  pointer_steps?: { moving: number; sparse: number } | null;
}
const fixtures = new URL('../packages/server/src/scoring/signals/fixtures/', import.meta.url);
const sessions: Session[] = ['xdotool-paths.json', 'xdotool-paths-load.json'].flatMap(
  (file) => (JSON.parse(readFileSync(new URL(file, fixtures), 'utf8')) as { sessions: Session[] }).sessions,
);
// Built as signals/recorded-pages.fixtures.ts builds them (what the SDK sends).
const pages = sessions.map((s) => ({
  mouse: s.mouse,
  click_samples: s.clicks,
  mouse_moves: s.mouse.length,
  clicks: s.clicks.length,
  ...(s.pointer_steps ? { pointer_steps: s.pointer_steps } : {}),
}));
const samples = pages.reduce((n, p) => n + p.mouse.length, 0) / pages.length;

type Metrics = (evidence: unknown) => unknown;
const contenders: Array<{ name: string; run: Metrics }> = [{ name: 'this checkout', run: behaviorMetrics }];
if (against) {
  const url = pathToFileURL(isAbsolute(against) ? against : resolve(against)).href;
  const other = (await import(url)) as { behaviorMetrics: Metrics };
  contenders.push({ name: against, run: other.behaviorMetrics });
  const differ = pages.filter(
    (p) => JSON.stringify(behaviorMetrics(p)) !== JSON.stringify(other.behaviorMetrics(p)),
  ).length;
  console.log(`outputs: ${differ === 0 ? 'equal' : `DIFFER on ${differ}`} over ${pages.length} pages`);
}
// The part the reaches being found once saves: one `aimedReachSpans` pass over a page already read.
const paths = new Map(pages.map((p) => [p as unknown, readMousePath(p.mouse)]));
const spansOnly: Metrics = (p) =>
  aimedReachSpans(paths.get(p)!, (p as { click_samples: number[][] }).click_samples);
contenders.push({ name: 'one aimedReachSpans pass', run: spansOnly });
if (only !== undefined) {
  const chosen = contenders[only === 'this' ? 0 : 1]!;
  const us = reps > 0 ? time(chosen.run) : 0;
  console.log(
    `${chosen.name}: one round of ${reps} passes over ${pages.length} pages, ${us.toFixed(2)} µs CPU per page`,
  );
  process.exit(0);
}

/** CPU µs per page of `run` over every page, `reps` times. */
function time(run: Metrics): number {
  let sink = 0;
  const before = process.cpuUsage();
  for (let r = 0; r < reps; r++) for (const p of pages) if (run(p) !== null) sink++;
  const used = process.cpuUsage(before);
  if (sink < 0) console.log(sink);
  return (used.user + used.system) / (reps * pages.length);
}

for (const c of contenders) time(c.run); // warm-up
const per: number[][] = contenders.map(() => []);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? contenders.keys() : [...contenders.keys()].reverse();
  for (const i of order) per[i]!.push(time(contenders[i]!.run));
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
console.log(
  `${pages.length} recorded pages, ${samples.toFixed(0)} pointer samples a page on average; ${rounds} rounds × ${reps} passes`,
);
for (const [i, c] of contenders.entries()) {
  const m = median(per[i]!);
  const lo = Math.min(...per[i]!);
  const hi = Math.max(...per[i]!);
  console.log(
    `${c.name.padEnd(34)} ${m.toFixed(2)} µs CPU per page (rounds ${lo.toFixed(2)}–${hi.toFixed(2)})`,
  );
}
if (against) {
  const ratios = per[0]!.map((v, r) => v / per[1]![r]!);
  console.log(`this checkout / ${against}: ${median(ratios).toFixed(3)} (median of per-round ratios)`);
}
