import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';

/**
 * BotD (@fingerprintjs/botd, MIT), the open-source peer, run in the same browsers as Warden for a
 * side-by-side comparison. Its bundle is read from node_modules: injected into a Playwright page,
 * or served to a plain chromium from a loopback server. Nothing is fetched from a CDN, and its
 * installation-statistics request is off (`load({ monitoring: false })`).
 */
const require = createRequire(import.meta.url);
const PKG_DIR = path.dirname(require.resolve('@fingerprintjs/botd/package.json'));
export const BOTD_VERSION = (
  JSON.parse(fs.readFileSync(path.join(PKG_DIR, 'package.json'), 'utf8')) as { version: string }
).version;
const BOTD_ESM = fs.readFileSync(path.join(PKG_DIR, 'dist/botd.esm.js'), 'utf8');

export interface BotdVerdict {
  bot: boolean;
  botKind?: string;
  /** Detectors that fired, as `name:botKind` (from `getDetections()`). */
  detectors: string[];
  error?: string;
}

/** Browser-side: `load` → `{bot, botKind, detectors}`; errors come back as `{error}`. */
const IN_PAGE = `async (load) => {
  try {
    const botd = await load({ monitoring: false });
    const result = botd.detect();
    const detections = botd.getDetections() || {};
    const detectors = Object.keys(detections)
      .filter((k) => detections[k].bot)
      .map((k) => k.replace(/^detect/, '') + ':' + detections[k].botKind);
    return { bot: result.bot, botKind: result.botKind, detectors };
  } catch (e) {
    return { bot: false, detectors: [], error: String(e) };
  }
}`;

export const showBotd = (v: BotdVerdict | undefined): string =>
  !v
    ? 'no result'
    : v.error
      ? `error: ${v.error}`
      : v.bot
        ? `bot (${v.botKind}): ${v.detectors.join(', ')}`
        : 'not bot (no detector fired)';

/** Runs BotD in an open Playwright page (after Warden's collection), as an inline module. */
export async function botdInPage(page: Page): Promise<BotdVerdict> {
  try {
    await page.addScriptTag({
      type: 'module',
      content: `${BOTD_ESM}\nwindow.__wardenE2eBotd = (${IN_PAGE})(load);\n`,
    });
    await page.waitForFunction('window.__wardenE2eBotd !== undefined', null, { timeout: 10_000 });
    return (await page.evaluate('window.__wardenE2eBotd')) as BotdVerdict;
  } catch (err) {
    return { bot: false, detectors: [], error: err instanceof Error ? err.message : String(err) };
  }
}

export interface BotdServer {
  /** The page to open: it loads BotD and posts the verdict back. */
  url: string;
  result(timeoutMs?: number): Promise<BotdVerdict>;
  stop(): Promise<void>;
}

/** A loopback server for a browser no driver controls: `/` runs BotD, `/result` receives the verdict. */
export async function startBotdServer(): Promise<BotdServer> {
  let resolve!: (v: BotdVerdict) => void;
  const posted = new Promise<BotdVerdict>((r) => {
    resolve = r;
  });
  const page = `<!doctype html><meta charset="utf-8"><title>BotD ${BOTD_VERSION}</title><p id="out">running</p>
<script type="module">
import { load } from '/botd.esm.js';
const verdict = await (${IN_PAGE})(load);
document.getElementById('out').textContent = JSON.stringify(verdict);
await fetch('/result', { method: 'POST', body: JSON.stringify(verdict) });
</script>`;
  const server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/result') {
      let body = '';
      req.on('data', (d: Buffer) => {
        body += d.toString();
      });
      req.on('end', () => {
        res.writeHead(204).end();
        try {
          resolve(JSON.parse(body) as BotdVerdict);
        } catch (err) {
          resolve({ bot: false, detectors: [], error: `bad result ${body}: ${String(err)}` });
        }
      });
      return;
    }
    if (req.url === '/botd.esm.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' }).end(BOTD_ESM);
      return;
    }
    if (req.url === '/') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(page);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    result: (timeoutMs = 20_000) =>
      Promise.race([
        posted,
        new Promise<BotdVerdict>((r) =>
          setTimeout(
            () => r({ bot: false, detectors: [], error: `no result in ${timeoutMs} ms` }),
            timeoutMs,
          ).unref(),
        ),
      ]),
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
