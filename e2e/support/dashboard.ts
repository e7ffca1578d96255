import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page, ViewportSize } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

export { type Receiver, startReceiver } from './receiver.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'packages/dashboard/dist/index.html');
const SHOTS = path.join(ROOT, 'e2e/screenshots');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
export const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** The analyst suites' sizes: a 1440×900 desktop first, then a phone. */
export const ANALYST_SIZES = [{ width: 1440, height: 900 }, PHONE] as const;

/**
 * The page at each of `sizes` into e2e/screenshots/ as `<name>-<width>x<height>.png`, then back at
 * the first size.
 */
export async function screenshots(
  p: Page,
  name: string,
  sizes: readonly [ViewportSize, ...ViewportSize[]],
  { fullPage }: { fullPage: boolean },
): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const size of sizes) {
    await p.setViewportSize(size);
    await p.waitForTimeout(200);
    await p.screenshot({ path: path.join(SHOTS, `${name}-${size.width}x${size.height}.png`), fullPage });
  }
  await p.setViewportSize(sizes[0]);
}

export interface Envelope<T> {
  success: boolean;
  data: T;
  error?: { code: string; message: string };
}

/**
 * What the dashboard suites share: a fresh server (the demo seed runs; webhooks may target
 * loopback and retry after 50, 100, 200 and 400 ms), one chromium, the owner's context and page
 * (not signed in), the page errors seen in every page opened here, and helpers bound to them.
 * Create it at the top of a suite, `start()` it in beforeAll and `stop()` it in afterAll.
 */
export function dashboardRig() {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let owner: BrowserContext | undefined;
  let page: Page | undefined;
  const pageErrors: string[] = [];

  function must<T>(value: T | undefined): T {
    if (value === undefined) throw new Error('[warden e2e] the dashboard rig is not started');
    return value;
  }

  async function api<T>(
    method: string,
    url: string,
    token: string | null,
    body?: unknown,
  ): Promise<Envelope<T>> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${must(server).baseUrl}${url}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return (await res.json()) as Envelope<T>;
  }

  async function login(email: string, password: string): Promise<string> {
    const res = await api<{ accessToken: string }>('POST', '/api/auth/login', null, { email, password });
    if (!res.success) throw new Error(`login failed: ${res.error?.message}`);
    return res.data.accessToken;
  }

  /**
   * A server-side verify on the demo site, with its keys: `{ context }` to `verify`, `{ events }`
   * to `verify/batch`.
   */
  function demoVerify(route: 'verify' | 'verify/batch', body: object): Promise<Response> {
    const s = must(server);
    return fetch(`${s.baseUrl}/api/antibot/${route}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-site-key': s.demo.siteKey,
        'x-secret-key': s.demo.secretKey,
      },
      body: JSON.stringify(body),
    });
  }

  /**
   * A varied day of server-side decisions (humans, disposable e-mails, two accounts sharing a card,
   * an HTTP library), so lists, charts and clusters have something to show.
   */
  async function seedTraffic(): Promise<void> {
    const ua = BROWSER_UA;
    const headers = { 'accept-language': 'en-US,en;q=0.9', accept: 'text/html' };
    const event = (context: Record<string, unknown>) => ({
      context: { user_agent: ua, ...context },
      headers,
    });
    const events = [
      ...['alice', 'bob', 'carol', 'dan', 'erin', 'frank'].map((name, i) =>
        event({
          event_type: 'login',
          account_id: name,
          ip_address: `81.2.69.${140 + i}`,
          email: `${name}@example.com`,
        }),
      ),
      ...['mallory1', 'mallory2', 'mallory3'].map((name) =>
        event({
          event_type: 'signup',
          account_id: name,
          ip_address: '198.51.100.7',
          email: `${name}@mailinator.com`,
        }),
      ),
      event({
        event_type: 'checkout',
        account_id: 'e2e-cluster-a',
        ip_address: '81.2.69.160',
        order_amount: 49.5,
        payment_hash: 'ph_shared',
      }),
      event({
        event_type: 'checkout',
        account_id: 'e2e-cluster-b',
        ip_address: '81.2.69.161',
        order_amount: 1.5,
        payment_hash: 'ph_shared',
      }),
      event({
        event_type: 'promo_claim',
        account_id: 'e2e-cluster-b',
        ip_address: '81.2.69.161',
        promo_code: 'WELCOME10',
      }),
      {
        context: {
          event_type: 'login',
          account_id: 'scraper',
          ip_address: '203.0.113.50',
          user_agent: 'python-requests/2.32',
        },
      },
    ];
    const res = await demoVerify('verify/batch', { events });
    const body = (await res.json()) as Envelope<{ failed: number }>;
    expect(body.data.failed).toBe(0);
  }

  async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await must(browser).newContext({ viewport: DESKTOP });
    const p = await context.newPage();
    p.on('pageerror', (err) => pageErrors.push(err.message));
    return { context, page: p };
  }

  async function signIn(p: Page, email: string, password: string): Promise<void> {
    await p.goto(`${must(server).baseUrl}/dashboard/`);
    await p.getByLabel('E-mail').fill(email);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
    await p.locator('nav[aria-label="Main"]').waitFor();
  }

  /** The page at 1280×800 and 390×844 (full page), into e2e/screenshots/. */
  function shoot(p: Page, name: string): Promise<void> {
    return screenshots(p, name, [DESKTOP, PHONE], { fullPage: true });
  }

  async function go(p: Page, route: string): Promise<void> {
    await p.goto(`${must(server).baseUrl}/dashboard/${route}`);
    await p.locator('nav[aria-label="Main"]').waitFor();
  }

  /** The e2e-bot decision: a server-side verify with a bad user agent on the demo site (201 when made). */
  async function verifyBot(): Promise<Response> {
    return demoVerify('verify', {
      context: {
        event_type: 'signup',
        account_id: 'e2e-bot',
        ip_address: '203.0.113.9',
        user_agent: 'curl/8',
      },
    });
  }

  /**
   * The e2e-bot decision the decisions suite makes (`verifyBot`), for suites that need one
   * decision to open; its id, as the owner's decisions list shows it.
   */
  async function botDecision(p: Page): Promise<string> {
    const res = await verifyBot();
    if (res.status !== 201) throw new Error(`verify failed: HTTP ${res.status} ${await res.text()}`);
    await go(p, 'decisions');
    const row = p.locator('tr', { hasText: 'e2e-bot' }).first();
    await row.waitFor({ timeout: 20_000 });
    const id = (await row.getAttribute('data-decision-id')) ?? '';
    if (!id) throw new Error('the e2e-bot decision has no id in the list');
    return id;
  }

  return {
    get server(): RunningServer {
      return must(server);
    },
    get browser(): Browser {
      return must(browser);
    },
    get owner(): BrowserContext {
      return must(owner);
    },
    get page(): Page {
      return must(page);
    },
    pageErrors,
    api,
    login,
    seedTraffic,
    newPage,
    signIn,
    shoot,
    go,
    demoVerify,
    verifyBot,
    botDecision,

    /** `env`: more server settings for this suite. */
    async start(env: Record<string, string> = {}): Promise<void> {
      if (!fs.existsSync(DIST)) {
        throw new Error(
          '[warden e2e] the dashboard is not built: run `npm run build` (npm install does it).',
        );
      }
      // Retries after 50, 100, 200 and 400 ms: a failing delivery gives up within about a second.
      server = await startServer({
        WARDEN_UNSAFE_WEBHOOK_TARGETS: 'true',
        WARDEN_WEBHOOK_BACKOFF_BASE_S: '0.05',
        ...env,
      });
      browser = await launchChromium();
      ({ context: owner, page } = await newPage());
    },

    async stop(): Promise<void> {
      await owner?.close().catch(() => undefined);
      await browser?.close();
      await server?.stop();
    },
  };
}

export type DashboardRig = ReturnType<typeof dashboardRig>;
