/**
 * Proof-of-work solver benchmark in headless chromium: hash rate per worker and in total of the
 * Warden solver (WASM with midstate, and its pure-JS fallback) against `solveChallenge` from
 * altcha-lib/v1 (WebCrypto, one digest per attempt) on the same challenges, next to native
 * OpenSSL. Run: `npm run bench:pow` (needs `npm run build:browser` and /usr/bin/chromium).
 * Options: --n <number to find> (default 1500000), --workers <k> (default hardwareConcurrency).
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { launchChromium } from '../e2e/support/browser.ts';
import { arg } from './lib/args.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(arg('n') ?? 1_500_000);

const workerFile = path.join(ROOT, 'packages/browser/dist/warden-worker.js');
if (!fs.existsSync(workerFile)) {
  console.error('Build the SDK first: npm run build:browser');
  process.exit(1);
}

async function bundle(contents: string): Promise<string> {
  const out = await esbuild.build({
    stdin: { contents, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
  });
  return out.outputFiles[0]!.text;
}

const files: Record<string, string> = {
  '/': '<!doctype html><title>pow bench</title>',
  '/warden-worker.js': fs.readFileSync(workerFile, 'utf8'),
  '/altcha-worker.js': await bundle("import 'altcha-lib/v1/worker';"),
  '/altcha.js': await bundle(
    "import { solveChallenge } from 'altcha-lib/v1'; self.altchaSolve = solveChallenge;",
  ),
};
const server = http.createServer((req, res) => {
  const body = files[req.url ?? ''];
  if (body === undefined) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': req.url === '/' ? 'text/html' : 'text/javascript' }).end(body);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const address = server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

// The same salts for every solver; the answer is n, so a solver does exactly n + 1 hashes.
// altcha-lib (one WebCrypto digest per attempt) is ~100× slower, so it gets a smaller n.
const N_ALTCHA = Number(arg('n-altcha') ?? Math.min(N, 100_000));
const salts = Array.from({ length: 3 }, () => randomBytes(12).toString('hex'));
const challengesFor = (n: number) =>
  salts.map((salt) => ({ salt, challenge: createHash('sha256').update(`${salt}${n}`).digest('hex') }));

interface Row {
  solver: string;
  workers: number;
  hashes: number;
  ms: number;
}

// Runs in the page: each solver gets [0, N] split into `workers` contiguous parts.
const RUNNER = `async (spec) => {
  const { kind, workers, challenges, n } = spec;
  const parts = (k) => Array.from({ length: k }, (_, i) => [Math.floor((i * (n + 1)) / k), Math.floor(((i + 1) * (n + 1)) / k) - 1]);
  const spawn = async (url) => {
    const w = new Worker(url);
    if (url.includes('warden')) await new Promise((r) => { w.onmessage = r; });
    return w;
  };
  const pool = kind === 'altcha-main' ? [] : await Promise.all(Array.from({ length: workers }, () => spawn(kind.startsWith('warden') ? '/warden-worker.js' : '/altcha-worker.js')));
  let found = 0;
  const t0 = performance.now();
  for (const c of challenges) {
    if (kind === 'altcha-main') {
      const s = await self.altchaSolve(c.challenge, c.salt, 'SHA-256', n, 0).promise;
      if (s && s.number === n) found++;
      continue;
    }
    const results = await Promise.all(parts(workers).map(([start, end], i) => new Promise((resolve) => {
      const w = pool[i];
      w.onmessage = (e) => resolve(kind.startsWith('warden') ? e.data.found : (e.data ? e.data.number : -1));
      if (kind.startsWith('warden')) {
        w.postMessage({ type: 'solve', id: 1, salt: c.salt, challenge: c.challenge, start, end, ...(kind === 'warden-js' ? { engine: 'js' } : {}) });
      } else {
        w.postMessage({ type: 'work', payload: { algorithm: 'SHA-256', challenge: c.challenge, salt: c.salt, start, max: end } });
      }
    })));
    if (results.includes(n)) found++;
  }
  const ms = performance.now() - t0;
  for (const w of pool) w.terminate();
  return { ms, found };
}`;

function nativeRate(): number | undefined {
  try {
    const out = execFileSync('openssl', ['speed', '-seconds', '2', '-bytes', '64', 'sha256'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const m = /sha256\s+([\d.]+)k/.exec(out);
    return m ? (Number(m[1]) * 1000) / 64 : undefined;
  } catch {
    return undefined;
  }
}

const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(`${base}/`);
  await page.addScriptTag({ url: '/altcha.js' });
  const cores = (await page.evaluate('navigator.hardwareConcurrency')) as number;
  const many = Number(arg('workers') ?? cores);
  const plan: Array<[string, string, number, number]> = [
    ['warden wasm', 'warden', 1, N],
    ['warden wasm', 'warden', many, N],
    ['warden js fallback', 'warden-js', 1, N],
    ['altcha-lib/v1 solveChallenge (page)', 'altcha-main', 1, N_ALTCHA],
    ['altcha-lib/v1 worker', 'altcha', 1, N_ALTCHA],
    ['altcha-lib/v1 worker', 'altcha', many, N_ALTCHA],
  ];
  const rows: Row[] = [];
  for (const [solver, kind, workers, n] of plan) {
    const challenges = challengesFor(n);
    const runner = `(${RUNNER})(${JSON.stringify({ kind, workers, challenges, n })})`;
    const r = (await page.evaluate(runner)) as { ms: number; found: number };
    if (r.found !== salts.length) throw new Error(`${solver}: found ${r.found}/${salts.length}`);
    rows.push({ solver, workers, hashes: (n + 1) * salts.length, ms: r.ms });
  }
  const native = nativeRate();
  const fmt = (v: number) => `${(v / 1e6).toFixed(2)} M/s`;
  console.log(
    `\nPoW solver benchmark: ${salts.length} challenges, answer n = ${N} (altcha-lib: ${N_ALTCHA}), chromium, ${cores} cores\n`,
  );
  console.log(
    `${'solver'.padEnd(38)}${'workers'.padStart(8)}${'time'.padStart(10)}${'total'.padStart(13)}${'per worker'.padStart(13)}`,
  );
  for (const r of rows) {
    const rate = (r.hashes / r.ms) * 1000;
    console.log(
      `${r.solver.padEnd(38)}${String(r.workers).padStart(8)}${`${Math.round(r.ms)} ms`.padStart(10)}${fmt(rate).padStart(13)}${fmt(rate / r.workers).padStart(13)}`,
    );
  }
  if (native)
    console.log(
      `${'native openssl sha256 (64-byte blocks)'.padEnd(38)}${'1'.padStart(8)}${''.padStart(10)}${fmt(native).padStart(13)}${fmt(native).padStart(13)}`,
    );
  const wasm1 = rows[0] ? (rows[0].hashes / rows[0].ms) * 1000 : 0;
  console.log(
    `\nTarget: ≥ 3.00 M/s per worker${native ? ` (50% of native = ${fmt(native / 2)})` : ''}; measured ${fmt(wasm1)}.`,
  );
} finally {
  await browser.close();
  server.close();
}
