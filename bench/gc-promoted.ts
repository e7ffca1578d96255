/**
 * Main-thread GC per decision: `node --import tsx bench/gc-promoted.ts [--warm N] [--decisions M]
 * [--rate R]`. Warden runs as `npm run bench` runs it (bundled, one Pro site, its webhook on) with
 * `--trace-gc-nvp`; `--warm N` bare events closed-loop first (default 2000), then `--decisions M`
 * (default 5000) offered open-loop at R/s (default 475). Prints, per isolate (the main thread's is
 * the one with mark-compacts), scavenges and their pause per 1,000 decisions, the bytes promoted
 * and left in the new space per decision, and the mark-compacts: the bytes do not depend on the
 * machine's load, the pauses do. Build first: `npm run build:server`.
 */
import { arg } from './lib/args.ts';
import { load } from './lib/load.ts';
import { startReceiver, startWarden } from './lib/servers.ts';
import { bareBody } from './lib/verify-bodies.ts';

const WARM = Number(arg('warm') ?? 2000);
const DECISIONS = Number(arg('decisions') ?? 5000);
const RATE = Number(arg('rate') ?? 475);

/** A numeric field of a --trace-gc-nvp line. */
function field(line: string, name: string): number {
  return Number(new RegExp(`\\b${name}=([0-9.]+)`).exec(line)?.[1] ?? 0);
}

async function main(): Promise<void> {
  let n = 0;
  const next = () => n++;
  let trace = '';
  const receiver = await startReceiver();
  const warden = await startWarden(receiver.url, ['--trace-gc-nvp'], 1);
  const headers = { 'x-site-key': warden.siteKey, 'x-secret-key': warden.secretKey };
  let decisions = 0;
  try {
    await load({ url: warden.url, headers, connections: 16, amount: WARM, body: bareBody, next });
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the warm-up's deliveries
    warden.child.stdout!.on('data', (chunk: Buffer) => {
      trace += chunk.toString();
    });
    const measured = await load({
      url: warden.url,
      headers,
      connections: 16,
      amount: DECISIONS,
      body: bareBody,
      next,
      rate: RATE,
    });
    decisions = measured['2xx'];
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    await warden.stop();
    await receiver.stop();
  }
  const byIsolate = new Map<string, string[]>();
  for (const line of trace.split('\n')) {
    const isolate = /^\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1];
    if (!isolate || !line.includes(' gc=')) continue;
    byIsolate.set(isolate, [...(byIsolate.get(isolate) ?? []), line]);
  }
  console.log(`${decisions} bare decisions at ${RATE}/s after ${WARM} closed-loop events`);
  const sum = (lines: string[], name: string) => lines.reduce((s, l) => s + field(l, name), 0);
  for (const [isolate, lines] of byIsolate) {
    const scavenges = lines.filter((l) => / gc=s\b/.test(l));
    const compacts = lines.filter((l) => / gc=mc\b/.test(l));
    console.log(
      `  isolate ${isolate}: ${scavenges.length} scavenges, ` +
        `${((1000 * sum(scavenges, 'pause')) / decisions).toFixed(0)} ms of pause per 1,000 decisions; ` +
        `per decision ${(sum(scavenges, 'promoted') / decisions / 1024).toFixed(1)} KB promoted, ` +
        `${(sum(scavenges, 'new_space_survived') / decisions / 1024).toFixed(1)} KB survived in the new space; ` +
        `${compacts.length} mark-compacts (${sum(compacts, 'pause').toFixed(0)} ms of pause)`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
