import type { FingerprintEvidence } from '@warden/protocol';
import { SWIFTSHADER } from './device-data.ts';
import { type Device, hash28, humanDesktop, workerOf } from './devices.ts';
import type { Locale } from './locales.ts';
import type { Rng } from './rng.ts';

/** Browsers driven by automation: plain headless Chrome, and stealth set-ups that hide it. */
const LINUX_SERVER_FONTS = ['DejaVu Sans', 'DejaVu Serif', 'Liberation Mono', 'Liberation Sans'];

/** Puppeteer/Playwright/Selenium headless Chrome with defaults (a Linux container). */
export function headlessChrome(rng: Rng): Device {
  const major = rng.pick(['131', '130', '129', '124']);
  const oldHeadless = rng.chance(0.45);
  const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/${major}.0.0.0 Safari/537.36`;
  const [w, h] = rng.pick([
    [800, 600],
    [1280, 720],
    [1920, 1080],
  ] as const);
  const tool = rng.weighted([
    ['puppeteer', 45],
    ['playwright', 35],
    ['selenium', 20],
  ] as const);
  const fingerprint: FingerprintEvidence = {
    v: 1,
    user_agent: userAgent,
    platform: 'Linux x86_64',
    vendor: 'Google Inc.',
    language: 'en-US',
    languages: ['en-US'],
    timezone: rng.pick(['UTC', 'Etc/UTC', 'America/New_York']),
    timezone_offset: 0,
    screen: { width: w, height: h, avail_width: w, avail_height: h, color_depth: 24, pixel_ratio: 1 },
    hardware_concurrency: rng.pick([2, 4, 8, 16]),
    device_memory: 8,
    max_touch_points: 0,
    canvas_hash: hash28(`canvas|headless|${major}`),
    webgl: {
      vendor: 'WebKit',
      renderer: 'WebKit WebGL',
      unmasked_vendor: SWIFTSHADER[0],
      unmasked_renderer: SWIFTSHADER[1],
      version: 'WebGL 1.0 (OpenGL ES 2.0 Chromium)',
      hash: hash28(`webgl|swiftshader|${major}`),
    },
    audio_hash: hash28('audio|linux|chrome'),
    math_hash: hash28('math|linux|v8'),
    fonts: LINUX_SERVER_FONTS,
    plugins_count: oldHeadless ? 0 : 5,
    mime_types_count: oldHeadless ? 0 : 2,
    pdf_viewer_enabled: !oldHeadless,
    cookies_enabled: true,
    local_storage: true,
    session_storage: true,
    indexed_db: true,
    color_gamut: 'srgb',
  };
  const markers = ['headless_ua'];
  if (oldHeadless) markers.push('no_chrome_object', 'no_plugins', 'zero_outer_dims');
  if (rng.chance(0.5)) markers.push('notification_denied');
  const artifacts =
    tool === 'selenium'
      ? [
          'cdc_adoQpoasnfa76pfcZLmcfl_Array',
          'cdc_adoQpoasnfa76pfcZLmcfl_Promise',
          'cdc_adoQpoasnfa76pfcZLmcfl_Symbol',
        ]
      : tool === 'playwright' && rng.chance(0.6)
        ? ['__playwright__binding__', '__pwInitScripts']
        : [];
  fingerprint.timezone_offset = fingerprint.timezone === 'America/New_York' ? 240 : 0;
  return {
    kind: 'desktop',
    label: `headless-${tool}`,
    userAgent,
    fingerprint,
    worker: workerOf(fingerprint),
    window: oldHeadless
      ? { inner_width: w, inner_height: h, outer_width: 0, outer_height: 0, screen_x: 0, screen_y: 0 }
      : { inner_width: w, inner_height: h, outer_width: w, outer_height: h, screen_x: 0, screen_y: 0 },
    tells: {
      webdriver: true,
      webdriver_defined: 'getter_native',
      headless_markers: markers,
      automation_artifacts: artifacts,
      cdp: tool !== 'selenium',
      tampered_functions: [],
    },
    viewport: { w, h },
    clockSkewMs: rng.normal(0, 200),
  };
}

export type StealthKit = 'puppeteer-stealth' | 'playwright-headful' | 'patched-cdp';

/**
 * Stealth automation: a normal desktop Chrome profile on the page (user agent, platform, WebGL
 * spoofed), webdriver false, and what leaks anyway: the CDP side effect, non-native patched
 * functions, and a Web Worker that still shows the real machine.
 */
export function stealthChrome(rng: Rng, locale: Locale, kit: StealthKit): Device {
  let d = humanDesktop(rng, locale);
  for (let i = 0; i < 10 && !d.label.endsWith('chrome'); i++) d = humanDesktop(rng, locale);
  const realWorker = { ...d.worker };
  let cdp = false;
  let tampered: string[] = [];
  let webdriverDefined = 'getter_native';
  if (kit === 'puppeteer-stealth') {
    // Headless on a Linux server: the worker shows the real UA, platform and GPU.
    cdp = true;
    webdriverDefined = rng.pick(['absent', 'getter_native', 'getter_patched']);
    if (rng.chance(0.6)) {
      realWorker.user_agent = d.userAgent
        .replace('Chrome/', 'HeadlessChrome/')
        .replace(/\(Windows[^)]*\)|\(Macintosh[^)]*\)/, '(X11; Linux x86_64)');
      realWorker.platform = 'Linux x86_64';
    }
    if (rng.chance(0.6)) realWorker.webgl_renderer = SWIFTSHADER[1];
    if (rng.chance(0.3)) tampered = ['navigator.hardwareConcurrency', 'WebGLRenderingContext.getParameter'];
  } else if (kit === 'playwright-headful') {
    cdp = true;
  } else {
    // nodriver / patchright / rebrowser-patches: no Runtime.enable, so no CDP tell; spoofing scripts leak instead.
    if (rng.chance(0.6)) tampered = ['HTMLCanvasElement.toDataURL', 'CanvasRenderingContext2D.getImageData'];
    if (tampered.length === 0 || rng.chance(0.3)) realWorker.webgl_renderer = SWIFTSHADER[1];
    if (rng.chance(0.3)) tampered = [...tampered, 'Function.prototype.toString:proxy'];
  }
  return {
    ...d,
    label: `stealth-${kit}`,
    worker: realWorker,
    tells: {
      webdriver: false,
      webdriver_defined: webdriverDefined,
      headless_markers: [],
      automation_artifacts: [],
      cdp,
      tampered_functions: tampered,
    },
  };
}
