import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { CHROMIUM } from '../../e2e/support/browser.ts';
import { removeProfile } from '../../e2e/support/desktop.ts';

/**
 * The device-identity conditions of issue 28, each a real chromium visit to the demo page of a
 * running Warden: what one person does on one machine (the device id must stay) and what other
 * machines look like (it must differ). Shared by e2e/device-identity.e2e.test.ts and
 * `npm run eval:device-id` (stability and separation over repetitions).
 */
export interface Visit {
  /** `home`: the machine's own chromium profile (storage kept between visits); `fresh`: a new one. */
  profile: 'home' | 'fresh' | 'incognito';
  args?: string[];
  context?: BrowserContextOptions;
  /** Page zoom set as the profile's default zoom (what Ctrl + or the settings do), e.g. 1.1. */
  zoom?: number;
  /** Script run before the page's own (a simulated other machine's navigator or renders). */
  init?: string;
  /** Reload the page once before reading the id. */
  reload?: boolean;
}

export interface Condition {
  name: string;
  /** true: the same machine (same device id expected); false: a simulated other device. */
  same: boolean;
  visit: Visit;
}

const UA_CHROME = (version: number) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version}.0.0.0 Safari/537.36`;

/**
 * The machine as it normally is: a 1920×1080 screen, a 1280×800 window (real chromium switches, no
 * viewport emulation, so page zoom and display scale act as on a desktop), locale, zone, user agent.
 */
const BASE_ARGS = ['--window-size=1280,800', '--screen-info={1920x1080}'];
const BASE: BrowserContextOptions = {
  viewport: null,
  locale: 'en-US',
  timezoneId: 'America/New_York',
  userAgent: UA_CHROME(130),
};

/** The base switches, each replaced by the visit's switch of the same name. */
function launchArgs(extra: string[] = []): string[] {
  const name = (arg: string) => arg.split('=')[0];
  const kept = BASE_ARGS.filter((a) => !extra.some((e) => name(e) === name(a)));
  return ['--no-sandbox', '--disable-gpu', '--disable-background-networking', ...kept, ...extra];
}

export const override = (target: string, prop: string, value: string) =>
  `Object.defineProperty(${target}.prototype, '${prop}', { get: () => ${value}, configurable: true });`;

/** WebGL reports another GPU (UNMASKED_RENDERER_WEBGL is 0x9246). */
const OTHER_GPU = `for (const C of [WebGLRenderingContext, WebGL2RenderingContext]) {
  const get = C.prototype.getParameter;
  C.prototype.getParameter = function (p) { return p === 0x9246 ? 'ANGLE (NVIDIA, NVIDIA GeForce RTX 4070)' : get.call(this, p); };
}`;

/** The 2D canvas renders its first pixel `shift` steps off (a browser build whose rasteriser changed). */
const otherCanvas = (shift: number) => `{
  const get = CanvasRenderingContext2D.prototype.getImageData;
  CanvasRenderingContext2D.prototype.getImageData = function (...a) {
    const d = get.apply(this, a);
    d.data[0] = (d.data[0] + ${shift}) % 256;
    return d;
  };
}`;

export const CONDITIONS: Condition[] = [
  { name: 'reload', same: true, visit: { profile: 'home', reload: true } },
  { name: 'restart', same: true, visit: { profile: 'home' } },
  { name: 'incognito', same: true, visit: { profile: 'incognito' } },
  { name: 'fresh profile', same: true, visit: { profile: 'fresh' } },
  { name: 'window resized', same: true, visit: { profile: 'fresh', args: ['--window-size=800,600'] } },
  { name: 'zoom 110 %', same: true, visit: { profile: 'fresh', zoom: 1.1 } },
  { name: 'zoom 150 %', same: true, visit: { profile: 'fresh', zoom: 1.5 } },
  {
    name: 'time zone changed',
    same: true,
    visit: { profile: 'fresh', context: { timezoneId: 'Europe/Berlin' } },
  },
  {
    name: 'languages changed',
    same: true,
    visit: { profile: 'fresh', args: ['--lang=de-DE'], context: { locale: 'de-DE' } },
  },
  {
    name: 'user agent version changed',
    same: true,
    visit: { profile: 'fresh', context: { userAgent: UA_CHROME(131) } },
  },
  // Each re-rendering is its own: a fingerprint once linked is that device's from then on.
  {
    name: 'canvas re-rendered, storage kept',
    same: true,
    visit: { profile: 'home', init: otherCanvas(1) },
  },
  {
    name: 'browser update re-rendering the canvas, storage cleared',
    same: true,
    visit: { profile: 'fresh', init: otherCanvas(2), context: { userAgent: UA_CHROME(132) } },
  },
  {
    name: 'pixel ratio 2 (display scale)',
    same: false,
    visit: { profile: 'fresh', args: ['--force-device-scale-factor=2'] },
  },
  { name: 'another screen', same: false, visit: { profile: 'fresh', args: ['--screen-info={2560x1440}'] } },
  {
    name: 'another core count',
    same: false,
    visit: { profile: 'fresh', init: override('Navigator', 'hardwareConcurrency', '16') },
  },
  { name: 'another GPU', same: false, visit: { profile: 'fresh', init: OTHER_GPU } },
  {
    name: 'another platform',
    same: false,
    visit: { profile: 'fresh', init: override('Navigator', 'platform', "'Win32'") },
  },
  {
    name: 'another canvas, same browser version',
    same: false,
    visit: { profile: 'fresh', init: otherCanvas(3) },
  },
];

/** One machine's chromium: its home profile lives until `close()`. */
export class Machine {
  private readonly home = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-device-home-'));

  constructor(private readonly demoUrl: string) {}

  /** Visit the demo page as `visit` says; answers the device id the page registered. */
  async deviceId(visit: Visit, read: (page: Page) => Promise<string> = registeredDevice): Promise<string> {
    const fresh =
      visit.profile === 'fresh' ? fs.mkdtempSync(path.join(os.tmpdir(), 'warden-device-fresh-')) : null;
    const dir = fresh ?? this.home;
    if (visit.zoom) setDefaultZoom(dir, visit.zoom);
    const options = { ...BASE, ...visit.context };
    const args = launchArgs(visit.args);
    let context: BrowserContext;
    let close: () => Promise<void>;
    if (visit.profile === 'incognito') {
      const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
      context = await browser.newContext(options);
      close = () => browser.close();
    } else {
      context = await chromium.launchPersistentContext(dir, {
        executablePath: CHROMIUM,
        headless: true,
        args,
        ...options,
      });
      close = () => context.close();
    }
    try {
      if (visit.init) await context.addInitScript(visit.init);
      const page = context.pages()[0] ?? (await context.newPage());
      await openDemo(page, this.demoUrl);
      if (visit.reload) await openDemo(page, this.demoUrl, true);
      return await read(page);
    } finally {
      await close();
      if (fresh) removeProfile(fresh);
    }
  }

  close(): void {
    removeProfile(this.home);
  }
}

async function openDemo(page: Page, url: string, reload = false): Promise<void> {
  if (reload) await page.reload();
  else await page.goto(url);
  await page.waitForFunction('window.wardenDemo && window.wardenDemo.decisions.length > 0', null, {
    timeout: 30_000,
  });
}

export const registeredDevice = (page: Page) =>
  page.evaluate('window.wardenDemo.warden.fingerprint().then((r) => r.device_id)') as Promise<string>;

/** Chromium's default zoom level is log base 1.2 of the factor (110 % → 0.5228). */
function setDefaultZoom(profileDir: string, zoom: number): void {
  const file = path.join(profileDir, 'Default', 'Preferences');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const prefs = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>)
    : {};
  prefs.partition = { default_zoom_level: { x: Math.log(zoom) / Math.log(1.2) } };
  fs.writeFileSync(file, JSON.stringify(prefs));
}
