/**
 * `npm run bench:alloc`: bytes allocated on Warden's main thread per bare POST /api/antibot/verify
 * decision, and where. Warden runs as `npm run bench` runs it (bundled, webhook worker on, one Pro
 * site); `--warm N` bare events first (default 1500), then V8's sampling heap profiler (including
 * objects already collected: every allocation) over `--measure M` more (default 3000). Prints the
 * bytes per decision, the top allocating functions (self) and writes the .heapprofile (Chrome
 * DevTools, Memory tab) into bench/profiles/. Build first: `npm run build:server`. The sampler:
 * bench/lib/heap-sampler.mjs (preloaded with --import). `--survivors`: only the objects that
 * outlived a scavenge (promoted: what makes scavenges long and fills the old generation); `--rate N`:
 * the measured events offered at N/s (closed loop otherwise, where every decision in flight
 * outlives the scavenges it meets).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg } from './lib/args.ts';
import { load } from './lib/load.ts';
import { startReceiver, startWarden } from './lib/servers.ts';
import { bareBody } from './lib/verify-bodies.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WARM = Number(arg('warm') ?? 1500);
const MEASURE = Number(arg('measure') ?? 3000);
const TOP = Number(arg('top') ?? 30);
const SURVIVORS = process.argv.includes('--survivors');
/** Requests/s over all connections for the measured events (default: as fast as answered). */
const RATE = arg('rate') === undefined ? undefined : Number(arg('rate'));

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/** Self bytes by function (name, file, line), over the whole profile. */
function selfByFunction(head: ProfileNode): Map<string, number> {
  const self = new Map<string, number>();
  const visit = (n: ProfileNode) => {
    const file = n.callFrame.url.split('/').slice(-2).join('/');
    const key = `${n.callFrame.functionName || '(anonymous)'} ${file}:${n.callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + n.selfSize);
    for (const c of n.children) visit(c);
  };
  visit(head);
  return self;
}

async function main(): Promise<void> {
  fs.mkdirSync(path.join(HERE, 'profiles'), { recursive: true });
  const file = path.join(
    HERE,
    'profiles',
    `alloc-${new Date().toISOString().replace(/[:.]/g, '-')}.heapprofile`,
  );
  process.env.WARDEN_HEAP_PROFILE = file;
  if (SURVIVORS) process.env.WARDEN_HEAP_SURVIVORS = '1';
  let n = 0;
  const next = () => n++;
  const receiver = await startReceiver();
  const warden = await startWarden(receiver.url, ['--import', path.join(HERE, 'lib/heap-sampler.mjs')], 1);
  const headers = { 'x-site-key': warden.siteKey, 'x-secret-key': warden.secretKey };
  let answered = 0;
  try {
    await load({ url: warden.url, headers, connections: 16, amount: WARM, body: bareBody, next });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the warm-up's deliveries
    process.kill(warden.pid, 'SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const measured = await load({
      url: warden.url,
      headers,
      connections: 16,
      amount: MEASURE,
      body: bareBody,
      next,
      ...(RATE === undefined ? {} : { rate: RATE }),
    });
    answered = measured['2xx'];
    await new Promise((resolve) => setTimeout(resolve, 1500)); // their deliveries, in the profile too
  } finally {
    await warden.stop();
    await receiver.stop();
  }
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { head: ProfileNode };
  const self = selfByFunction(profile.head);
  let total = 0;
  for (const bytes of self.values()) total += bytes;
  console.log(
    `main thread: ${(total / answered / 1024).toFixed(1)} KB allocated per bare decision ` +
      `(${answered} decisions after ${WARM}; webhook deliveries included); profile: ${path.relative(process.cwd(), file)}`,
  );
  for (const [key, bytes] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(
      `${(bytes / answered).toFixed(0).padStart(8)} B  ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${key}`,
    );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
