import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Decision } from '@warden/node';
import type { BotdVerdict } from '../../e2e/support/botd.ts';
import { launchPlainChromium, xdotool } from '../../e2e/support/desktop.ts';
import { loadTraces, type Trace, withoutJumps } from '../../e2e/support/human-input.ts';
import { type RunningServer, startServer } from '../../e2e/support/server.ts';
import { personPages } from '../aiming/pages.ts';
import { type Reach, readReaches, splitPeople } from '../aiming/reaches.ts';
import { type Display, desktopScript, screenLayout } from './desktop-input.ts';
import { MIN_REPLAY_MOVES } from './held-out.ts';
import { kitLogin, launchKit } from './kits.ts';
import type { ProbeReport } from './probe.ts';
import type { Setup } from './setups.ts';
import type { Shop } from './shop.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/mouse-dev/', import.meta.url));

/** A Warden server for one setup, with the shop's origin allowed on the demo site. */
export interface Warden {
  server: RunningServer;
  /** GET an admin API path with the demo owner's token. */
  api<T>(path: string): Promise<T>;
}

export async function startWarden(shop: Shop): Promise<Warden> {
  const server = await startServer({ WARDEN_LOG_LEVEL: 'error' });
  try {
    const login = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: server.demo.email, password: server.demo.password }),
    });
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const api = async <T>(p: string, init: RequestInit = {}): Promise<T> => {
      const res = await fetch(`${server.baseUrl}${p}`, { ...init, headers });
      if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: T }).data;
    };
    const site = await api<{ allowedOrigins: string[] }>(`/api/sites/${server.demo.siteId}`);
    await api(`/api/sites/${server.demo.siteId}`, {
      method: 'PATCH',
      body: JSON.stringify({ allowedOrigins: [...site.allowedOrigins, shop.origin] }),
    });
    await shop.use({
      baseUrl: server.baseUrl,
      siteKey: server.demo.siteKey,
      secretKey: server.demo.secretKey,
    });
    return { server, api: (p) => api(p) };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

export interface BrowserDecision {
  id: string;
  deviceId: string | null;
  classification: string;
  action: string;
  riskScore: number;
  signals: Array<{ rule: string; score: number }>;
  evidence?: Record<string, unknown> | undefined;
}

export interface VisitOutcome {
  setup: string;
  run: number;
  /** /verify was called by the shop's backend with the SDK's token. */
  tokenSent: boolean;
  verify?: Decision | undefined;
  /** The browser-side decision (/collect) of the same submit, read back through the admin API. */
  collect?: BrowserDecision | undefined;
  botd?: BotdVerdict | undefined;
  probe?: ProbeReport | undefined;
  error?: string | undefined;
  ms: number;
}

export interface VisitEnv {
  shop: Shop;
  warden: Warden;
  display?: Display;
  /** Per-visit limit, ms. */
  timeoutMs: number;
}

const pagesCache = new Map<string, Reach[][]>();
/**
 * The sign-in pages of the held-out half (even subject numbers; the tells were tuned on the odd
 * ones) of the study at `file`: three consecutive reaches of one person a page, people in turn.
 * Run r replays page (r × 7) mod pages, so runs walk across people.
 */
function aimingPages(file: string): Reach[][] {
  let pages = pagesCache.get(file);
  if (!pages) {
    pages = personPages(splitPeople(readReaches(file).filter((r) => r.moves.length >= 5)).heldOut);
    if (pages.length === 0) throw new Error(`${file}: no held-out person with three reaches`);
    pagesCache.set(file, pages);
  }
  return pages;
}

const tracesCache = new Map<string, Trace[]>();
/** Up to 200 traces of `dir` (a folder of fixtures/mouse-dev, or an absolute path) with enough moves to replay. */
function traces(dir: string): Trace[] {
  let t = tracesCache.get(dir);
  if (!t) {
    t = loadTraces(path.resolve(FIXTURES, dir), 200).filter((tr) => tr.moves.length >= MIN_REPLAY_MOVES);
    if (t.length === 0) throw new Error(`${dir}: no trace with ${MIN_REPLAY_MOVES}+ moves`);
    tracesCache.set(dir, t);
  }
  return t;
}

/** Kills, by pid, every process whose command line holds `marker` (a browser that outlived close()). */
export function reap(marker: string): number {
  let killed = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.includes(marker) && Number(pid) !== process.pid) {
        process.kill(Number(pid), 'SIGKILL');
        killed++;
      }
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return killed;
}

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: no result in ${ms} ms`)), ms).unref(),
    ),
  ]);

/** One visit of `setup` to the shop: log in, let the backend call /verify, gather every verdict. */
export async function visit(setup: Setup, run: number, env: VisitEnv): Promise<VisitOutcome> {
  const started = Date.now();
  const id = `${setup.id}-${run}-${Math.random().toString(36).slice(2, 8)}`;
  const marker = `--warden-eval-visit=${id}`;
  const creds = {
    email: `shopper${run}.${setup.id.replace(/[^a-z]/g, '')}@example.com`,
    password: 'Tr0mbone8sunset',
  };
  const outcome: VisitOutcome = { setup: setup.id, run, tokenSent: false, ms: 0 };
  const cleanups: Array<() => Promise<unknown>> = [];
  try {
    await withTimeout(
      (async () => {
        if (setup.kind === 'kit') {
          if (!setup.headless && !env.display) throw new Error('a headful setup needs the Xvfb display');
          const { browser, context } = await launchKit({
            kit: setup.kit,
            headless: setup.headless,
            display: env.display?.display,
            marker,
          });
          cleanups.push(() => withTimeout(browser.close(), 10_000, 'browser.close'));
          const page = await context.newPage();
          await kitLogin(page, env.shop.url(id), setup.input, creds);
        } else {
          const display = env.display;
          if (!display) throw new Error('a desktop setup needs the Xvfb display');
          const browser = launchPlainChromium(display, env.shop.url(id), { width: 1280, height: 1000 }, [
            marker,
          ]);
          cleanups.push(() => browser.stop());
          const { layout } = await env.shop.waitFor(id, ['layout'], 30_000);
          if (!layout) throw new Error(`the page reported no layout: ${browser.output().slice(-400)}`);
          await new Promise((r) => setTimeout(r, 600));
          // People are replayed as a desktop pointer moves: a touchscreen's lifts do not jump it.
          const human = traces(setup.humanTraces ?? 'circles_human_pc1').map(withoutJumps);
          const script = await desktopScript(setup.style, screenLayout(layout), creds, 1000 * run + 17, {
            // Each run starts at another recording (a few runs of a small folder wrap around).
            human: human.slice(((run * 7) % 150) % human.length),
            bot: traces(setup.botTraces ?? 'circles_bot_pynput'),
            ...(setup.aimingData
              ? { reaches: aimingPages(setup.aimingData)[(run * 7) % aimingPages(setup.aimingData).length] }
              : {}),
          });
          await xdotool(display, script);
        }
        await env.shop.waitFor(id, ['verify'], 20_000);
      })(),
      env.timeoutMs,
      `visit ${id}`,
    );
  } catch (err) {
    outcome.error = err instanceof Error ? err.message.split('\n')[0] : String(err);
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    reap(marker);
  }
  const record = await env.shop.waitFor(id, ['verify', 'botd', 'probe'], 3000);
  outcome.botd = record.botd;
  outcome.probe = record.probe;
  if (record.verify) {
    outcome.tokenSent = !!record.verify.token;
    outcome.verify = record.verify.decision;
    if (record.verify.error) outcome.error ??= `verify: ${record.verify.error}`;
    if (record.verify.browserRequestId) {
      try {
        const d = await env.warden.api<BrowserDecision>(`/api/decisions/${record.verify.browserRequestId}`);
        outcome.collect = {
          id: d.id,
          deviceId: d.deviceId,
          classification: d.classification,
          action: d.action,
          riskScore: d.riskScore,
          signals: d.signals,
          evidence: d.evidence,
        };
      } catch (err) {
        outcome.error ??= `collect decision: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
  } else {
    outcome.error ??= 'the shop backend was never called';
  }
  outcome.ms = Date.now() - started;
  return outcome;
}
