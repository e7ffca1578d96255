import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type LaunchOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOTD_VERSION, type BotdVerdict, botdInPage, showBotd, startBotdServer } from './support/botd.ts';
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
import { type Box, HumanScript, loadTraces } from './support/human-input.ts';
import type { RunningServer } from './support/server.ts';

/**
 * Issue 6: a person at a desktop scores `human`; headful and stealth automation does not.
 * The person is a chromium process started like a person starts it (no remote debugging, no
 * automation flags, no driver) on an Xvfb display, moved by OS-level input: xdotool replays
 * recorded human mouse traces and types with human key timing.
 *
 * Each visit also runs BotD (the open-source peer) in the same browser after Warden's decision,
 * and its verdict is printed next to Warden's (a table at the end; docs/browser-sdk.md,
 * "Headful automation and stealth"). Only that BotD gave a verdict is asserted, not what it was.
 */

const DEFAULT_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];

interface Comparison {
  variant: string;
  warden: DecisionSummary;
  botd: BotdVerdict;
}

const show = (d: DecisionSummary | undefined) =>
  d
    ? `${d.classification} (risk ${d.riskScore}, ${d.action}): ${d.signals.map((s) => `${s.rule} ${s.score}`).join(', ')}`
    : 'no decision';

describe.skipIf(!desktopAvailable())(
  'a person at a desktop and headful or stealth automation',
  {
    timeout: 180_000,
  },
  () => {
    let server: RunningServer;
    let display: VirtualDisplay;
    let token: string;
    let chromiumVersion = '?';
    const comparisons: Comparison[] = [];

    /** BotD ran and answered (what it answered is only recorded). */
    function expectVerdict(botd: BotdVerdict): void {
      expect(botd.error, showBotd(botd)).toBeUndefined();
      expect(typeof botd.bot, showBotd(botd)).toBe('boolean');
    }

    /** Prints both verdicts for one visit and keeps them for the table printed at the end. */
    function compare(variant: string, warden: DecisionSummary, botd: BotdVerdict): void {
      console.info(`[e2e] ${variant}: ${show(warden)}`);
      console.info(`[e2e] ${variant}, BotD ${BOTD_VERSION}: ${showBotd(botd)}`);
      comparisons.push({ variant, warden, botd });
    }

    beforeAll(async () => {
      ({ server, display, accessToken: token } = await startDesktopScene());
    }, 120_000);

    afterAll(async () => {
      if (comparisons.length > 0) {
        const rows = comparisons.map(
          (c) =>
            `  ${c.variant.padEnd(48)} Warden ${c.warden.classification.padEnd(10)} BotD ${c.botd.error ? 'error' : c.botd.bot ? `bot (${c.botd.botKind})` : 'not bot'}`,
        );
        console.info(
          `[e2e] Warden vs BotD ${BOTD_VERSION} on chromium ${chromiumVersion}, ${new Date().toISOString().slice(0, 10)}:\n${rows.join('\n')}`,
        );
      }
      await display?.stop();
      await server?.stop();
    });

    async function api<T>(path: string): Promise<T> {
      const res = await fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: T }).data;
    }

    /** The newest decision matching the filter, waiting for it to be recorded. */
    async function decision(filter: Record<string, string>, timeoutMs = 30_000): Promise<DecisionSummary> {
      const q = new URLSearchParams({ siteId: server.demo.siteId, limit: '1', ...filter });
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const page = await api<{ items: DecisionSummary[] }>(`/api/decisions?${q}`);
        if (page.items[0]) return page.items[0];
        if (Date.now() > deadline) throw new Error(`no decision for ${q}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }

    /**
     * Where the demo's login form is on the screen in a window of WINDOW's size: a headful chromium
     * of the same build with the same flags (and the same infobars: Playwright's --disable-infobars
     * and --enable-automation are dropped; the SDK is blocked so it records nothing) reports the
     * page's offset in its window and the form's layout.
     */
    async function loginLayout() {
      // A persistent context: its first window is the one that shows the infobars.
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
        await page.goto(`${server.baseUrl}/demo`);
        await page.waitForTimeout(1000); // infobars settle
        const w = (await page.evaluate(
          '({ iw: innerWidth, ih: innerHeight, ow: outerWidth, oh: outerHeight, sx: screenX, sy: screenY })',
        )) as Record<'iw' | 'ih' | 'ow' | 'oh' | 'sx' | 'sy', number>;
        const left = w.sx + (w.ow - w.iw) / 2;
        const top = w.sy + w.oh - w.ih;
        const box = async (selector: string): Promise<Box> => {
          const b = await page.locator(selector).boundingBox();
          if (!b) throw new Error(`${selector} is not laid out`);
          return { ...b, x: b.x + left, y: b.y + top };
        };
        return {
          content: { x: left, y: top, width: w.iw, height: w.ih },
          email: await box('#login input[name=email]'),
          password: await box('#login input[name=password]'),
          submit: await box('#login button'),
        };
      } finally {
        await context.close();
        removeProfile(profile);
      }
    }

    it('scores a plain chromium moved by OS-level input replaying a human trace as human', async () => {
      const layout = await loginLayout();
      const since = String(Date.now());
      const browser = launchPlainChromium(display, `${server.baseUrl}/demo`, WINDOW);
      const botdServer = await startBotdServer();
      try {
        await decision({ eventType: 'page_view', from: since }, 60_000);
        const at = (b: Box, fx = 0.5, fy = 0.5) => ({ x: b.x + b.width * fx, y: b.y + b.height * fy });
        const traces = loadTraces();
        const { content } = layout;
        const script = new HumanScript(7);
        // Look around the page for a few seconds, as the recorded person did…
        script.lines.push(`mousemove ${Math.round(content.x + 600)} ${Math.round(content.y + 400)}`);
        for (const trace of traces.slice(0, 3)) script.replay(trace, content).sleep(450);
        // …then fill in the login form and submit it.
        script.strokeTo(at(layout.email, 0.3), traces[3]!).click().selectAll().type('jane.doe@example.com');
        script.strokeTo(at(layout.password, 0.4), traces[4]!).click().selectAll().type('Tr0mbone-sunset');
        script.strokeTo(at(layout.submit), traces[5]!).click();
        await xdotool(display, script.lines);

        const login = await decision({ eventType: 'login', from: since }, 30_000);
        // Then BotD in the same tab: no driver can inject it, so the person goes to a loopback page
        // that loads it (address bar, typed URL, Return) and posts its verdict back.
        const visit = new HumanScript(11)
          .sleep(600)
          .cmd('key ctrl+l')
          .sleep(400)
          .cmd(`type --delay 70 ${botdServer.url}`)
          .sleep(300)
          .cmd('key Return');
        await xdotool(display, visit.lines);
        const botd = await botdServer.result();
        compare('human at a desktop', login, botd);
        expect(login.accountId, show(login)).toBe('jane.doe@example.com');
        // No automation tell at all on a plain browser (a false CDP hit here would be a false positive).
        const rules = login.signals.map((s) => s.rule);
        for (const rule of ['automation_cdp', 'automation_webdriver', 'headless_browser', 'headless_hints'])
          expect(rules, show(login)).not.toContain(rule);
        expect(login.classification, show(login)).toBe('human');
        expect(login.action, show(login)).toBe('allow');
        expectVerdict(botd);
      } catch (err) {
        const all = await api<{ items: DecisionSummary[] }>(
          `/api/decisions?siteId=${server.demo.siteId}&from=${since}`,
        ).catch(() => ({ items: [] }));
        console.error(
          `[e2e] decisions of this visit:\n${all.items.map((d) => `${d.eventType} ${d.accountId}: ${show(d)}`).join('\n')}`,
        );
        console.error(`[e2e] chromium output:\n${browser.output().slice(-2000)}`);
        throw err;
      } finally {
        await browser.stop();
        await botdServer.stop();
      }
    });

    /**
     * Opens the demo in an automated browser and fills in the login form with the mouse and keyboard;
     * then runs BotD in the same page. Prints and records both verdicts.
     */
    async function automatedLogin(
      variant: string,
      launch: (options: LaunchOptions) => Promise<Browser>,
      options: LaunchOptions,
      account: string,
      contextOptions: Parameters<Browser['newContext']>[0] = {},
    ): Promise<{ d: DecisionSummary; botd: BotdVerdict }> {
      const browser = await launch({
        executablePath: CHROMIUM,
        env: { ...process.env, DISPLAY: display.display },
        ...options,
      });
      let context: BrowserContext | undefined;
      try {
        context = await browser.newContext(contextOptions);
        const page: Page = await context.newPage();
        await page.goto(`${server.baseUrl}/demo`);
        await page.waitForFunction('window.wardenDemo && window.wardenDemo.decisions.length > 0', null, {
          timeout: 30_000,
        });
        const centre = async (selector: string) => {
          const b = (await page.locator(selector).boundingBox())!;
          return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
        };
        await page.mouse.move(300, 200, { steps: 20 });
        for (const [selector, text] of [
          ['#login input[name=email]', account],
          ['#login input[name=password]', 'Tr0mbone-sunset'],
        ] as const) {
          const p = await centre(selector);
          await page.mouse.move(p.x, p.y, { steps: 25 });
          await page.mouse.click(p.x, p.y);
          await page.keyboard.press('Control+A');
          await page.keyboard.type(text, { delay: 90 });
        }
        const submit = await centre('#login button');
        await page.mouse.move(submit.x, submit.y, { steps: 25 });
        await page.mouse.click(submit.x, submit.y);
        const d = await decision({ eventType: 'login', accountId: account });
        chromiumVersion = browser.version();
        const botd = await botdInPage(page);
        compare(variant, d, botd);
        return { d, botd };
      } finally {
        await context?.close().catch(() => undefined);
        await browser.close().catch(() => undefined);
      }
    }

    it('classifies default headless Playwright as bot', async () => {
      const { d, botd } = await automatedLogin(
        'headless playwright',
        chromium.launch.bind(chromium),
        { args: ['--headless', ...DEFAULT_ARGS] },
        'headless@example.com',
      );
      expect(d.classification, show(d)).toBe('bot');
      expectVerdict(botd);
    });

    it('classifies headful Playwright (a visible window on the display) as bot', async () => {
      const { d, botd } = await automatedLogin(
        'headful playwright',
        chromium.launch.bind(chromium),
        { headless: false, args: DEFAULT_ARGS },
        'headful@example.com',
      );
      expect(d.classification, show(d)).toBe('bot');
      expectVerdict(botd);
    });

    it('classifies headful Playwright with the automation flags removed as bot', async () => {
      const { d, botd } = await automatedLogin(
        'headful playwright, flags patched',
        chromium.launch.bind(chromium),
        {
          headless: false,
          args: [...DEFAULT_ARGS, '--disable-blink-features=AutomationControlled'],
          ignoreDefaultArgs: ['--enable-automation'],
        },
        'headful-patched@example.com',
        { viewport: null },
      );
      expect(
        d.signals.map((s) => s.rule),
        show(d),
      ).toContain('automation_cdp');
      expect(d.classification, show(d)).toBe('bot');
      expectVerdict(botd);
    });

    it('classifies headless Playwright with patched flags and a spoofed desktop user agent as bot', async () => {
      const { d, botd } = await automatedLogin(
        'headless playwright, flags patched, desktop UA',
        chromium.launch.bind(chromium),
        {
          args: ['--headless', ...DEFAULT_ARGS, '--disable-blink-features=AutomationControlled'],
          ignoreDefaultArgs: ['--enable-automation'],
        },
        'headless-patched@example.com',
        {
          userAgent:
            'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
        },
      );
      expect(d.classification, show(d)).toBe('bot');
      expectVerdict(botd);
    });

    it('classifies headless Playwright with the puppeteer-extra stealth plugin as bot', async () => {
      const { chromium: extra } = await import('playwright-extra');
      const { default: stealth } = await import('puppeteer-extra-plugin-stealth');
      extra.use(stealth());
      const { d, botd } = await automatedLogin(
        'headless playwright + stealth plugin',
        extra.launch.bind(extra),
        { args: ['--headless', ...DEFAULT_ARGS] },
        'stealth@example.com',
      );
      expect(d.classification, show(d)).toBe('bot');
      expectVerdict(botd);
    });
  },
);
