import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { replay } from './lib/replay.ts';
import { printReport } from './lib/report.ts';
import { Rng } from './lib/rng.ts';
import { type Harness, startHarness } from './lib/server.ts';
import { loadTraceLibrary } from './lib/traces.ts';
import { DAY } from './lib/types.ts';
import { SCENARIOS } from './scenarios/index.ts';

/**
 * `npm run eval`: replays scenario traffic through the real HTTP API (in-process server on
 * loopback, virtual clock) and prints bot recall and human false-positive rate per family.
 * Deterministic for a seed (WARDEN_EVAL_SEED, default 7). Exit code 0 unless the server fails.
 */
const seed = Number(process.env.WARDEN_EVAL_SEED ?? 7);
const days = Number(process.env.WARDEN_EVAL_DAYS ?? 10);
const scale = Number(process.env.WARDEN_EVAL_SCALE ?? 0.75);
const only = process.env.WARDEN_EVAL_ONLY?.split(',').filter((s) => s !== '');
const missesFile = process.env.WARDEN_EVAL_MISSES;
const T0 = Date.UTC(2025, 2, 10, 0, 0, 0);

const started = performance.now();
const traces = loadTraceLibrary();
if (traces.human.length === 0)
  console.warn('warning: no human mouse traces found; desktop humans will have no mouse movement');

let harness: Harness;
try {
  harness = await startHarness(T0);
} catch (err) {
  console.error('eval: the server failed to start:', err);
  process.exit(1);
}

const scenarios = only ? SCENARIOS.filter((s) => only.includes(s.family.id)) : SCENARIOS;
let exitCode = 0;
try {
  const result = await replay(harness, scenarios, { rng: new Rng(seed), t0: T0, days, traces, scale });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const scored = result.stats.reduce((n, s) => n + s.events, 0);
  const failed = result.stats.reduce((n, s) => n + s.errorCount, 0);
  printReport(
    result.stats,
    `Warden detection eval: seed ${seed}, scale ${scale}, ${(result.simulatedMs / DAY).toFixed(1)} simulated days, ` +
      `${result.requests} requests (${scored} scored events, ${failed} failed) in ${seconds} s`,
  );
  if (missesFile) {
    const lines = result.stats.flatMap((s) =>
      s.misses.map((m) => JSON.stringify({ family: s.family.id, ...m })),
    );
    fs.writeFileSync(missesFile, lines.length > 0 ? `${lines.join('\n')}\n` : '');
    console.log(
      `misses (bots not caught, humans flagged or sent to review/challenge): ${lines.length} lines in ${missesFile}`,
    );
  }
  if (scored === 0 && failed > 0) {
    console.error('eval: every scoring call failed; the server is not working');
    exitCode = 1;
  }
} catch (err) {
  console.error('eval: replay failed:', err);
  exitCode = 1;
} finally {
  await harness.close().catch(() => undefined);
}
process.exit(exitCode);
