/**
 * `npm run bench:soak`: memory under sustained high-cardinality load. Starts Warden as `npm start`
 * does (the `warden` CLI, embedded SQLite in a temporary data dir, webhook worker on), drives
 * POST /api/antibot/verify on loopback with bodies in which every event is a new account, IP,
 * e-mail, device and payment hash, prints the server's RSS every 10 s and, at the end, the RSS
 * slope per 1,000 requests (least squares over the whole run and over its second half), its peak,
 * and the server's CPU time per request (all its threads: the cost of a garbage-collector setting);
 * for the tail: the requests answered after more than 1 s, the slowest, and per sample and over
 * the run the longest event-loop delay and group commit the server saw (its /metrics; the commit
 * from its histogram's buckets: "≤ bound"), and over the run the longest writer-thread transaction
 * and statement and GC pause of each kind (bucket bounds too).
 * Options: --minutes <m> (default 30), --connections <n> (default 16), --port <p> (default 20080),
 * --memory-mb <mb> (sets WARDEN_MEMORY_MB for the server), --plan free|pro|enterprise (default pro;
 * identity clusters are built on pro and enterprise only), --detail (with each sample: anonymous and
 * file-backed RSS, the V8 heap used and total, external memory), --node-args "<flags>" (Node flags
 * for the server, e.g. "--max-old-space-size=128"), --body context|evidence (default context: the
 * ~400-byte context-only bodies; evidence: bench/lib/verify-bodies.ts's 6–7 KB browser-evidence
 * bodies). At the end it also prints the bytes on disk per decision (bench/soak-storage.ts).
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { arg } from './lib/args.ts';
import { eventLoopDelay } from './lib/servers.ts';
import { type MetricsSnapshot, scrapeTimeline, slowestBound } from './lib/timeline.ts';
import { evidenceBody } from './lib/verify-bodies.ts';
import { type StorageReport, storageLines, storageReport } from './soak-storage.ts';
import { cpuMsOf, highCardinalityBody, memoryDetail, rssOf, slope, startSoakServer } from './soak-support.ts';

const MINUTES = Number(arg('minutes') ?? 30);
const CONNECTIONS = Number(arg('connections') ?? 16);
const PORT = Number(arg('port') ?? 20080);
const MEMORY_MB = arg('memory-mb');
const PLAN = arg('plan') ?? 'pro';
const DETAIL = process.argv.includes('--detail');
const BODY = arg('body') ?? 'context';
if (BODY !== 'context' && BODY !== 'evidence') throw new Error('--body is context or evidence');
const bodyOf = BODY === 'evidence' ? (n: number) => evidenceBody(n, n % 2 === 0) : highCardinalityBody;
const NODE_ARGS = (arg('node-args') ?? '').split(' ').filter(Boolean);
const SAMPLE_MS = 10_000;
/** Pauses of the writer thread and of the main thread's GC, from /metrics (bench/lib/timeline.ts). */
const PAUSE_SERIES = [
  ['warden_writer_thread_seconds{part="transaction"}', 'writer-thread transaction'],
  ['warden_writer_thread_seconds{part="statement"}', 'writer-thread statement'],
  ['nodejs_gc_duration_seconds{kind="minor"}', 'GC minor'],
  ['nodejs_gc_duration_seconds{kind="major"}', 'GC major'],
  ['nodejs_gc_duration_seconds{kind="incremental"}', 'GC incremental'],
] as const;
const MB = 1024 * 1024;

async function main(): Promise<void> {
  const server = await startSoakServer(
    PORT,
    MEMORY_MB ? { WARDEN_MEMORY_MB: MEMORY_MB } : {},
    PLAN,
    NODE_ARGS,
  );
  const pid = server.child.pid ?? 0;
  console.log(
    `warden soak: ${MINUTES} min of high-cardinality POST /api/antibot/verify, ${CONNECTIONS} connections, ` +
      `${BODY} bodies, ${PLAN} plan, node ${process.version}, ${os.cpus().length} CPUs, server pid ${pid}` +
      (MEMORY_MB ? `, WARDEN_MEMORY_MB=${MEMORY_MB}` : ''),
  );
  let sent = 0;
  let done = 0;
  let failed = 0;
  let overOneSecond = 0;
  let slowestMs = 0;
  let loopMaxMs = 0;
  let commitMax = 0;
  /** The slowest bound seen over the run, per series of the writer thread and of the GC. */
  const longest = new Map<string, number>(PAUSE_SERIES.map(([series]) => [series, 0]));
  const baseUrl = `http://127.0.0.1:${PORT}`;
  await eventLoopDelay(baseUrl); // starts the first delay window
  let timeline: MetricsSnapshot = await scrapeTimeline(baseUrl);
  const started = Date.now();
  const cpuAtStart = cpuMsOf(pid);
  const samples: Array<[number, number]> = [[0, rssOf(pid)]];
  console.log(`   t(s)  requests   req/s   RSS(MB)  loop max(ms)  commit max(ms)`);
  console.log(
    `${'0'.padStart(7)}${'0'.padStart(10)}${'-'.padStart(8)}${(samples[0]![1] / MB).toFixed(1).padStart(10)}`,
  );
  let lastDone = 0;
  const sampler = setInterval(async () => {
    const rss = rssOf(pid);
    const detail = DETAIL ? `   ${await memoryDetail(pid, PORT)}` : '';
    const loop = await eventLoopDelay(baseUrl);
    const now = await scrapeTimeline(baseUrl);
    const commit = slowestBound(timeline, now, 'warden_commit_seconds');
    for (const [series] of PAUSE_SERIES)
      longest.set(series, Math.max(longest.get(series)!, slowestBound(timeline, now, series)));
    timeline = now;
    loopMaxMs = Math.max(loopMaxMs, loop.maxMs);
    commitMax = Math.max(commitMax, commit);
    samples.push([done, rss]);
    const t = Math.round((Date.now() - started) / 1000);
    const rate = (done - lastDone) / (SAMPLE_MS / 1000);
    lastDone = done;
    console.log(
      `${String(t).padStart(7)}${String(done).padStart(10)}${rate.toFixed(0).padStart(8)}${(rss / MB).toFixed(1).padStart(10)}` +
        `${loop.maxMs.toFixed(1).padStart(14)}${`≤ ${commit * 1000}`.padStart(16)}${detail}`,
    );
  }, SAMPLE_MS);
  let finished: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const instance = autocannon(
    {
      url: `http://127.0.0.1:${PORT}`,
      connections: CONNECTIONS,
      duration: MINUTES * 60,
      requests: [
        {
          method: 'POST',
          path: '/api/antibot/verify',
          headers: {
            'content-type': 'application/json',
            'x-site-key': server.siteKey,
            'x-secret-key': server.secretKey,
          },
          setupRequest: (request) => ({ ...request, body: bodyOf(sent++) }),
        },
      ],
    },
    () => finished(),
  );
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    done++;
    if (statusCode >= 400) failed++;
    if (responseTimeMs > 1000) overOneSecond++;
    slowestMs = Math.max(slowestMs, responseTimeMs);
  });
  await ended;
  clearInterval(sampler);
  const endRss = rssOf(pid);
  const cpuMs = cpuMsOf(pid) - cpuAtStart;
  samples.push([done, endRss]);
  let storage: StorageReport | undefined;
  await server.stop((dataDir) => {
    storage = storageReport(dataDir);
  });

  const perK = (s: number) => `${((s * 1000) / 1024).toFixed(1)} KB`;
  const half = samples.filter(([n]) => n >= done / 2);
  const peak = Math.max(...samples.map(([, r]) => r));
  console.log('');
  console.log(
    `requests: ${done} (${failed} answered >= 400), ${(done / (MINUTES * 60)).toFixed(0)} req/s on average`,
  );
  console.log(
    `RSS: start ${(samples[0]![1] / MB).toFixed(1)} MB, end ${(endRss / MB).toFixed(1)} MB, peak ${(peak / MB).toFixed(1)} MB`,
  );
  console.log(
    `RSS slope per 1,000 requests: ${perK(slope(samples))} over the whole run, ${perK(slope(half))} over the second half`,
  );
  console.log(
    `tail: ${overOneSecond} requests over 1 s, the slowest ${slowestMs.toFixed(0)} ms; event-loop delay max ` +
      `${loopMaxMs.toFixed(1)} ms; longest group commit ≤ ${commitMax * 1000} ms (10 s samples)`,
  );
  console.log(
    `longest pauses (histogram bucket bounds): ${PAUSE_SERIES.map(([series, label]) => `${label} ≤ ${longest.get(series)! * 1000} ms`).join(', ')}`,
  );
  console.log(
    `server CPU (all threads): ${(cpuMs / 1000).toFixed(0)} s, ${((cpuMs * 1000) / done).toFixed(0)} µs per request`,
  );
  if (storage) for (const line of storageLines(storage)) console.log(line);
  if (failed > 0) process.exitCode = 1;
}

await main();
