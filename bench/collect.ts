/**
 * Evidence collection time in a real chromium. Each run loads a new document (a bare page on the
 * service's origin that loads /sdk/v1/warden.js), so nothing the SDK computed on an earlier page
 * is reused, then times `Warden.load()` → `fingerprint()` (fingerprint evidence: navigator/screen,
 * WebGL, canvas, fonts, audio, client hints; then registering it with the service) and → a
 * following `inspect()` (adds the environment: automation probes, permissions and the worker's
 * view, which a call in the first second after load waits for). Prints p50/p95/max over the runs,
 * with the per-collector wall times the SDK records (`inspect().timings`), and a second
 * `Warden.load()` → `inspect()` on the same page (reuses the page's render evidence).
 * By default the runs navigate one tab again and again (like moving between pages of a site: the
 * renderer process, its font and time zone caches and its GPU channel stay warm); `--new-tab`
 * opens a new tab, and so a new renderer process, for each run (a first visit).
 * Run: `npm run bench:collect [-- --runs 20] [-- --headful] [-- --new-tab]`
 * Needs the built SDK and /usr/bin/chromium; --headful also needs Xvfb.
 */
import { chromium } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../e2e/support/browser.ts';
import { startXvfb, type VirtualDisplay } from '../e2e/support/desktop.ts';
import { startServer } from '../e2e/support/server.ts';
import { arg } from './lib/args.ts';

const RUNS = Number(arg('runs') ?? 20);
const HEADFUL = process.argv.includes('--headful');
const NEW_TAB = process.argv.includes('--new-tab');

type Run = Record<string, number>;

const server = await startServer();
let display: VirtualDisplay | undefined;
try {
  if (HEADFUL) display = await startXvfb();
  const browser = display
    ? await chromium.launch({
        executablePath: CHROMIUM,
        headless: false,
        env: { ...process.env, DISPLAY: display.display },
        args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'],
      })
    : await launchChromium();
  const context = await browser.newContext();
  const pageUrl = `${server.baseUrl}/__bench_collect`;
  await context.route(pageUrl, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html><head><title>bench</title><script src="/sdk/v1/warden.js"></script></head><body><p>bench</p></body></html>',
    }),
  );
  let shared: Awaited<ReturnType<typeof context.newPage>> | undefined;
  const once = async (): Promise<Run> => {
    if (!shared || NEW_TAB) shared = await context.newPage();
    const page = shared;
    await page.goto(pageUrl);
    const run = (await page.evaluate(`(async () => {
      const siteKey = ${JSON.stringify(server.demo.siteKey)};
      const t0 = performance.now();
      const w = Warden.load({ siteKey, endpoint: location.origin });
      await w.fingerprint();
      const t1 = performance.now();
      const ev = await w.inspect();
      const t2 = performance.now();
      w.destroy();
      const out = {
        fingerprint_ms: t1 - t0,
        evidence_ms: t2 - t0,
        fp_collect_ms: ev.fingerprint.collect_ms,
        fp_main_thread_ms: ev.fingerprint.main_thread_ms,
        env_collect_ms: ev.environment.collect_ms,
        env_main_thread_ms: ev.environment.main_thread_ms,
        env_has_worker: ev.environment.worker ? 1 : 0,
      };
      for (const [k, v] of Object.entries(ev.timings ?? {})) out['t_' + k] = v;
      const t3 = performance.now();
      const again = Warden.load({ siteKey, endpoint: location.origin });
      await again.inspect();
      out.second_load_ms = performance.now() - t3;
      again.destroy();
      return out;
    })()`)) as Run;
    if (NEW_TAB) await page.close();
    return run;
  };
  await once(); // warm-up: HTTP cache, script compilation, GPU process
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once());
  await browser.close();

  const pct = (values: number[], p: number) => {
    const s = [...values].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
  };
  console.log(
    `chromium ${HEADFUL ? 'headful (Xvfb)' : 'headless'}, ${RUNS} runs, ${NEW_TAB ? 'a new tab each' : 'one tab, a new document each'}`,
  );
  console.log('metric                            p50      p95      max   (ms)');
  const labels: Record<string, string> = {
    fingerprint_ms: 'fingerprint() end to end',
    fp_collect_ms: '  fingerprint collect_ms',
    fp_main_thread_ms: '  fingerprint main_thread_ms',
    env_collect_ms: '  environment collect_ms',
    env_main_thread_ms: '  environment main_thread_ms',
    evidence_ms: 'then inspect(), from load',
    second_load_ms: 'second Warden.load() → inspect()',
  };
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r)))].filter((k) => k !== 'env_has_worker');
  const ordered = [
    ...Object.keys(labels).filter((k) => keys.includes(k) && k !== 'second_load_ms'),
    ...keys.filter((k) => k.startsWith('t_')),
    'second_load_ms',
  ];
  const f = (n: number) => n.toFixed(1).padStart(7);
  for (const key of ordered) {
    const v = runs.map((r) => r[key]).filter((x): x is number => typeof x === 'number');
    if (v.length === 0) continue;
    const label = labels[key] ?? `  collector ${key.slice(2)}`;
    console.log(`${label.padEnd(32)} ${f(pct(v, 50))}  ${f(pct(v, 95))}  ${f(Math.max(...v))}`);
  }
  const withWorker = runs.filter((r) => r.env_has_worker === 1).length;
  console.log(`environment.worker present in ${withWorker}/${runs.length} inspect() calls`);
} finally {
  await display?.stop();
  await server.stop();
}
