import { createCursor } from 'ghost-cursor-playwright';
import type { Browser, BrowserContext, LaunchOptions, Page } from 'playwright-core';
import { CHROMIUM } from '../../e2e/support/browser.ts';

/**
 * The automation kits of the benchmark, each driving Debian's chromium (never a downloaded
 * browser): Playwright as shipped, Playwright with puppeteer-extra's stealth plugin
 * (playwright-extra), patchright-core and rebrowser-playwright-core (patched Playwright builds
 * without the `Runtime.enable` leak). Headless, or headful on the benchmark's Xvfb display.
 */
export type Kit = 'playwright' | 'stealth' | 'patchright' | 'rebrowser';
export type KitInput = 'fill' | 'ghost';

export interface KitLaunch {
  kit: Kit;
  headless: boolean;
  display?: string | undefined;
  /** An extra switch that marks every process of this browser (for the reaper). */
  marker: string;
}

const WINDOW = { width: 1280, height: 1000 };

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--window-position=0,0',
  `--window-size=${WINDOW.width},${WINDOW.height}`,
];

type Launcher = { launch(options: LaunchOptions): Promise<Browser> };

async function launcher(kit: Kit): Promise<Launcher> {
  switch (kit) {
    case 'playwright':
      return (await import('playwright-core')).chromium;
    case 'stealth': {
      // playwright-extra's `chromium` is one shared object: register the plugin on it once.
      const { chromium } = await import('playwright-extra');
      if (!chromium.plugins.names.includes('stealth')) {
        const { default: stealth } = await import('puppeteer-extra-plugin-stealth');
        chromium.use(stealth());
      }
      return chromium as unknown as Launcher;
    }
    case 'patchright':
      return (await import('patchright-core')).chromium as unknown as Launcher;
    case 'rebrowser':
      return (await import('rebrowser-playwright-core')).chromium as unknown as Launcher;
  }
}

export async function launchKit(o: KitLaunch): Promise<{ browser: Browser; context: BrowserContext }> {
  const l = await launcher(o.kit);
  const browser = await l.launch({
    executablePath: CHROMIUM,
    headless: o.headless,
    args: [...ARGS, o.marker],
    env: { ...process.env, ...(o.display ? { DISPLAY: o.display } : {}) },
    timeout: 30_000,
  });
  // Headful: the real window's size (what patchright's authors recommend: no emulated viewport).
  const context = await browser.newContext(o.headless ? {} : { viewport: null });
  return { browser, context };
}

const pause = (lo: number, hi: number) => new Promise((r) => setTimeout(r, lo + Math.random() * (hi - lo)));

/** Logs in on the shop page with `fill` (Playwright's own typing-free input) or ghost-cursor. */
export async function kitLogin(
  page: Page,
  url: string,
  input: KitInput,
  creds: { email: string; password: string },
): Promise<void> {
  // ghost-cursor-playwright installs its position trackers on the page's `load`: create it first.
  const cursor = input === 'ghost' ? await createCursor(page, { debug: false }) : undefined;
  await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
  await pause(500, 900);
  if (!cursor) {
    await page.fill('#email', creds.email);
    await page.fill('#password', creds.password);
    await page.click('#submit');
    return;
  }
  const box = async (selector: string) => {
    const b = await page.locator(selector).boundingBox();
    if (!b) throw new Error(`${selector} is not laid out`);
    return b;
  };
  for (const [selector, text] of [
    ['#email', creds.email],
    ['#password', creds.password],
  ] as const) {
    await cursor.actions.click({ target: await box(selector), waitBeforeClick: [80, 200] });
    await pause(150, 400);
    for (const ch of text) {
      await page.keyboard.type(ch, { delay: 30 + Math.random() * 60 });
      await pause(40, 160);
    }
    await pause(200, 500);
  }
  await cursor.actions.click({ target: await box('#submit'), waitBeforeClick: [80, 200] });
}
