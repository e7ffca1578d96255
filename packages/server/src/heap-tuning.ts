import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept alive before it
 * collects again. V8 picks the factor from the heap limit: with the default limit of a machine with
 * a few GB (4 GB here) it is up to 4×, so a process whose live heap is 100 MB may sit at 400 MB of
 * heap, most of it garbage, and RSS follows (a soak reached 534 MB with 96 MB of budgeted state).
 * 30 % keeps the limit within 1.3× of what is alive (V8 also grows by a minimum step of a few MB,
 * so lower gains little); the concurrent marking that costs runs on V8's helper threads. Measured with bench/soak.ts --detail (2 minutes each, WARDEN_MEMORY_MB 64): 50 %
 * peaked at 287 MB RSS, 608 µs of CPU per request; 30 % at 280 MB, 578 µs (the same within noise).
 */
export const HEAP_GROWING_PERCENT = 30;

/** Node flags an operator set themselves win: then nothing is changed. */
function setByOperator(
  names: readonly string[],
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): boolean {
  const spelled = names.flatMap((name) => [name, name.replaceAll('-', '_')]);
  const given = (text: string) => spelled.some((s) => text.includes(s));
  return execArgv.some(given) || (nodeOptions !== undefined && given(nodeOptions));
}

/**
 * Tune the garbage collector of this process for a long-running server: applied by `warden serve`
 * at start. V8 reads `heap_growing_percent` each time it sets the next collection's limit, so it
 * takes effect at run time (unlike the heap's size limits, fixed when the isolate starts). Returns
 * the flags set (none when the operator set `--heap-growing-percent` on the command line or in
 * NODE_OPTIONS). Scavenges stay parallel: `--no-parallel-scavenge` measured no cheaper
 * (`npm run bench -- --scenarios bare --node-args --parallel-scavenge`, alternated on a quiet
 * machine: 894 / 836 µs per decision with parallel scavenges, 962 / 917 µs without).
 */
export function tuneHeap(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
  setFlags: (flags: string) => void = v8.setFlagsFromString,
): string[] {
  if (setByOperator(['heap-growing-percent'], execArgv, nodeOptions)) return [];
  const flag = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
  setFlags(flag);
  return [flag];
}
