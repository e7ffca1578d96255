import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Warden } from '@warden/node';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINGERPRINT } from '../packages/server/src/scoring/test-fixtures.ts';
import { CHROMIUM } from './support/browser.ts';
import {
  desktopAvailable,
  launchPlainChromium,
  plainChromiumArgs,
  removeProfile,
  type VirtualDisplay,
  xdotool,
} from './support/desktop.ts';
import { type DecisionSummary, startDesktopScene, WINDOW } from './support/desktop-scene.ts';
import { type Box, HumanScript, loadTraces, type Point } from './support/human-input.ts';
import type { RunningServer } from './support/server.ts';
import { type Shop, type ShopPath, type ShopSite, startShop } from './support/shop.ts';

/**
 * Issue 24: a person who uses any integration the docs propose is allowed — the demo shop with its
 * defaults (on a fresh install and once the IP has other traffic), `protectForm` with the Express
 * middleware and the browser token, `collect` + the backend's `/verify`, the Fastify middleware
 * without a token, and the ALTCHA widget alone (2.x and 3.x, docs/altcha.md's example).
 *
 * The person is a plain chromium (no driver, no automation flags) on an Xvfb display, moved by
 * OS-level input: xdotool replays recorded human mouse traces and types with human key timing.
 * Every decision of each visit (the page's own and the backend's) must be `allow`.
 */

const SHOP_PATHS: ShopPath[] = ['protect', 'collect', 'plain', 'altcha1', 'altcha2'];

const show = (d: DecisionSummary) =>
  `${d.eventType} ${d.accountId}: ${d.classification} (risk ${d.riskScore}, ${d.action}) ${d.signals.map((s) => `${s.rule} ${s.score}`).join(', ')}`;

const wait = async <T>(what: string, fn: () => Promise<T | undefined> | T | undefined, ms: number) => {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

describe.skipIf(!desktopAvailable())(
  'a person on every documented integration path',
  { timeout: 240_000 },
  () => {
    let server: RunningServer;
    let display: VirtualDisplay;
    let shop: Shop;
    let accessToken: string;
    const siteIds = {} as Record<ShopPath, string>;
    const sites = {} as Record<ShopPath, ShopSite>;
    const traces = loadTraces();

    async function api<T>(route: string, init: RequestInit = {}): Promise<T> {
      const res = await fetch(`${server.baseUrl}${route}`, {
        ...init,
        headers: {
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/json',
          ...init.headers,
        },
      });
      if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: T }).data;
    }

    async function decisionsOf(siteId: string, since: number): Promise<DecisionSummary[]> {
      const q = new URLSearchParams({ siteId, from: String(since), limit: '100' });
      return (await api<{ items: DecisionSummary[] }>(`/api/decisions?${q}`)).items;
    }

    beforeAll(async () => {
      ({ server, display, accessToken } = await startDesktopScene());
      // One site per integration, as a shop would have; the origins are set once the shop listens.
      for (const name of SHOP_PATHS) {
        const site = await api<{ siteId: string; siteKey: string; secretKey: string }>('/api/sites', {
          method: 'POST',
          body: JSON.stringify({ workspaceId: server.demo.workspaceId, name: `shop ${name}` }),
        });
        siteIds[name] = site.siteId;
        sites[name] = {
          siteKey: site.siteKey,
          client: new Warden({ baseUrl: server.baseUrl, siteKey: site.siteKey, secretKey: site.secretKey }),
        };
      }
      shop = await startShop(server.baseUrl, sites);
      for (const name of SHOP_PATHS)
        await api(`/api/sites/${siteIds[name]}`, {
          method: 'PATCH',
          body: JSON.stringify({ allowedOrigins: [shop.url] }),
        });
    }, 180_000);

    afterAll(async () => {
      await shop?.stop();
      await display?.stop();
      await server?.stop();
    });

    /**
     * Where the given elements of each page are on the screen in a window of WINDOW's size: a headful
     * chromium of the same build with the same flags and infobars (Playwright's --enable-automation
     * and --disable-infobars dropped). The SDK and the shop's ready beacon are blocked, so that it
     * records nothing; the ALTCHA widget runs (it takes its place in the form).
     */
    async function layout(url: string, selectors: readonly string[]): Promise<Record<string, Box>> {
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-e2e-layout-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: false,
        env: { ...process.env, DISPLAY: display.display },
        args: plainChromiumArgs(WINDOW),
        ignoreDefaultArgs: ['--enable-automation', '--disable-infobars'],
        viewport: null,
      });
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        await page.route('**/sdk/**', (route) => route.abort());
        await page.route('**/ready/**', (route) => route.abort());
        await page.goto(url);
        await page.waitForTimeout(1500); // infobars and the widget settle
        const w = (await page.evaluate(
          '({ iw: innerWidth, ih: innerHeight, ow: outerWidth, oh: outerHeight, sx: screenX, sy: screenY })',
        )) as Record<'iw' | 'ih' | 'ow' | 'oh' | 'sx' | 'sy', number>;
        const left = w.sx + (w.ow - w.iw) / 2;
        const top = w.sy + w.oh - w.ih;
        const out: Record<string, Box> = { content: { x: left, y: top, width: w.iw, height: w.ih } };
        for (const selector of selectors) {
          const b = await page.locator(selector).boundingBox();
          if (!b || b.y + b.height > w.ih) throw new Error(`${selector} is not on screen`);
          out[selector] = { ...b, x: b.x + left, y: b.y + top };
        }
        return out;
      } finally {
        await context.close();
        removeProfile(profile);
      }
    }

    const at = (b: Box, fx = 0.5, fy = 0.5): Point => ({ x: b.x + b.width * fx, y: b.y + b.height * fy });

    /** A person looks around the page for a moment (recorded traces over the content area). */
    function lookAround(script: HumanScript, content: Box, first: number): HumanScript {
      script.lines.push(`mousemove ${Math.round(content.x + 600)} ${Math.round(content.y + 400)}`);
      for (const trace of traces.slice(first, first + 2)) script.replay(trace, content).sleep(450);
      return script;
    }

    /** Opens `url` in a plain chromium, waits for `ready`, runs the person's script, waits for `done`. */
    async function visit(
      url: string,
      ready: () => boolean | Promise<boolean>,
      script: HumanScript,
      done: () => boolean | Promise<boolean>,
    ) {
      const browser = launchPlainChromium(display, url, WINDOW);
      try {
        await wait('the page to be ready', async () => ((await ready()) ? true : undefined), 60_000);
        await xdotool(display, script.lines);
        await wait('the visit to be scored', async () => ((await done()) ? true : undefined), 60_000);
      } catch (err) {
        console.error(`[e2e] chromium output:\n${browser.output().slice(-2000)}`);
        throw err;
      } finally {
        await browser.stop();
      }
    }

    /** Every decision is `allow`; the listed event types are among them. */
    function expectAllowed(decisions: DecisionSummary[], eventTypes: string[]): void {
      const all = decisions.map(show).join('\n');
      console.info(`[e2e] decisions:\n${all}`);
      expect(decisions.map((d) => d.eventType).sort(), all).toEqual(expect.arrayContaining(eventTypes));
      for (const d of decisions) expect(d.action, all).toBe('allow');
    }

    describe('the demo shop with its defaults (page view, sign-up, checkout)', () => {
      const seed = { n: 0 };
      async function demoVisit(): Promise<DecisionSummary[]> {
        const boxes = await layout(`${server.baseUrl}/demo`, ['#signup button', '#checkout button']);
        const since = Date.now();
        const decisions = () => decisionsOf(server.demo.siteId, since);
        const script = lookAround(new HumanScript(13 + seed.n++), boxes.content!, 0);
        script.strokeTo(at(boxes['#signup button']!, 0.45), traces[3]!).click().sleep(1500);
        script.strokeTo(at(boxes['#checkout button']!, 0.55), traces[4]!).click();
        await visit(
          `${server.baseUrl}/demo`,
          async () => (await decisions()).some((d) => d.eventType === 'page_view'),
          script,
          async () => (await decisions()).some((d) => d.eventType === 'checkout'),
        );
        return decisions();
      }

      it('allows a person on a fresh install', async () => {
        expectAllowed(await demoVisit(), ['page_view', 'signup', 'checkout']);
      });

      it('allows a person once the IP has other traffic (other accounts signing in from it)', async () => {
        const demo = new Warden({
          baseUrl: server.baseUrl,
          siteKey: server.demo.siteKey,
          secretKey: server.demo.secretKey,
        });
        for (let i = 0; i < 12; i++)
          await demo.verify({
            context: {
              event_type: 'login',
              account_id: `colleague-${i}@example.com`,
              ip_address: '127.0.0.1',
              user_agent:
                'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
            },
          });
        expectAllowed(await demoVisit(), ['page_view', 'signup', 'checkout']);
      });
    });

    /**
     * The ALTCHA shops protect their checkout with the SDK (their backend has sent a checkout with
     * a browser token) and their sign-up with the widget alone: the sign-up is not charged for the
     * token it never had (`token_missing` is judged per event type).
     */
    async function checkoutWithToken(name: ShopPath): Promise<void> {
      const client = sites[name].client;
      const { token } = await client.registerFingerprint({ fingerprint: FINGERPRINT });
      const checkout = await client.verify({
        token,
        context: {
          event_type: 'checkout',
          account_id: 'earlier.customer@example.com',
          ip_address: '203.0.113.9',
        },
      });
      expect(checkout.device_id).not.toBe('');
    }

    it.each(SHOP_PATHS)('%s: a person signing up is allowed', async (name) => {
      const boxes = await layout(`${shop.url}/${name}`, ['#email', '#password', '#submit']);
      if (name.startsWith('altcha')) await checkoutWithToken(name);
      const since = Date.now();
      const email = `${name}.person@example.com`;
      const script = lookAround(new HumanScript(29 + SHOP_PATHS.indexOf(name)), boxes.content!, 6);
      script.strokeTo(at(boxes['#email']!, 0.3), traces[8]!).click().type(email);
      script.strokeTo(at(boxes['#password']!, 0.4), traces[9]!).click().type('Tr0mbone-sunset');
      script.strokeTo(at(boxes['#submit']!), traces[10]!).click();
      // The SDK paths score the page too (/collect, carried into the backend's /verify).
      const signups = name === 'protect' || name === 'collect' ? 2 : 1;
      const decisions = () => decisionsOf(siteIds[name], since);
      const post = () => shop.posts.find((p) => p.path === name && p.email === email);
      await visit(
        `${shop.url}/${name}`,
        () => shop.ready.has(name),
        script,
        // The backend's answer, or (a middleware that refused the post answers 403 itself) its decision.
        async () =>
          post() !== undefined ||
          (await decisions()).filter((d) => d.eventType === 'signup').length >= signups,
      );
      expectAllowed(await decisions(), ['signup']);
      expect((await decisions()).filter((d) => d.eventType === 'signup')).toHaveLength(signups);
      expect(post()?.enforcement).toBe('allow');
      if (name.startsWith('altcha'))
        expect(post()?.decision?.signals.map((s) => s.rule)).toContain('pow_verified');
    });
  },
);
