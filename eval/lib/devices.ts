import { createHash } from 'node:crypto';
import type { EnvironmentEvidence, FingerprintEvidence } from '@warden/protocol';
import {
  CHROME_VERSIONS,
  EXTRA_FONTS,
  LINUX_FONTS,
  LINUX_GPUS,
  MAC_FONTS,
  MAC_GPUS,
  MAC_SCREENS,
  WIN_FONTS,
  WIN_GPUS,
  WIN_SCREENS,
} from './device-data.ts';
import type { Viewport } from './geometry.ts';
import type { Locale } from './locales.ts';
import type { Rng } from './rng.ts';

export type WorkerEvidence = NonNullable<EnvironmentEvidence['worker']>;
export type WindowEvidence = NonNullable<EnvironmentEvidence['window']>;
export type AutomationTells = Pick<
  EnvironmentEvidence,
  | 'webdriver'
  | 'webdriver_defined'
  | 'headless_markers'
  | 'automation_artifacts'
  | 'cdp'
  | 'tampered_functions'
>;

/** One browser on one machine: what the SDK would read from it. */
export interface Device {
  kind: 'desktop' | 'mobile';
  label: string;
  userAgent: string;
  fingerprint: FingerprintEvidence;
  worker: WorkerEvidence;
  window: WindowEvidence;
  tells: AutomationTells;
  viewport: Viewport;
  /** Client clock error (ms): environment.timestamp = true time + skew. */
  clockSkewMs: number;
}

/** 28 hex characters, like the SDK's cyrb53 hashes: equal keys give equal hashes. */
export function hash28(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 28);
}

export const CLEAN_TELLS: AutomationTells = {
  webdriver: false,
  webdriver_defined: 'getter_native',
  headless_markers: [],
  automation_artifacts: [],
  cdp: false,
  tampered_functions: [],
};

type Os = 'windows' | 'mac' | 'linux';
type Browser = 'chrome' | 'edge' | 'firefox' | 'safari';

function chromeUa(os: Os, major: string, edge: boolean): string {
  const platform =
    os === 'windows'
      ? 'Windows NT 10.0; Win64; x64'
      : os === 'mac'
        ? 'Macintosh; Intel Mac OS X 10_15_7'
        : 'X11; Linux x86_64';
  const base = `Mozilla/5.0 (${platform}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
  return edge ? `${base} Edg/${major}.0.0.0` : base;
}

function hints(os: Os, major: string, full: string, edge: boolean, mobile = false) {
  const brand = edge ? 'Microsoft Edge' : 'Google Chrome';
  return {
    brands: [
      { brand, version: major },
      { brand: 'Chromium', version: major },
      { brand: 'Not_A Brand', version: '24' },
    ],
    mobile,
    platform: os === 'windows' ? 'Windows' : os === 'mac' ? 'macOS' : mobile ? 'Android' : 'Linux',
    platform_version: os === 'windows' ? '15.0.0' : os === 'mac' ? '14.6.1' : mobile ? '14.0.0' : '6.5.0',
    architecture: os === 'mac' ? 'arm' : 'x86',
    bitness: '64',
    model: '',
    full_version: full,
  };
}

function fontsFor(rng: Rng, os: Os): string[] {
  const base = os === 'windows' ? WIN_FONTS : os === 'mac' ? MAC_FONTS : LINUX_FONTS;
  const extra = EXTRA_FONTS.filter(() => rng.chance(0.15));
  return [...new Set([...base, ...extra])].sort();
}

/** A desktop browser of a real person. */
export function humanDesktop(rng: Rng, locale: Locale): Device {
  const combo = rng.weighted<[Os, Browser]>([
    [['windows', 'chrome'], 38],
    [['windows', 'edge'], 12],
    [['mac', 'chrome'], 14],
    [['mac', 'safari'], 11],
    [['windows', 'firefox'], 7],
    [['mac', 'firefox'], 2],
    [['linux', 'chrome'], 3],
    [['linux', 'firefox'], 1],
  ]);
  const [os, browser] = combo;
  const [w, h, ratio] = rng.weighted(
    (os === 'mac' ? MAC_SCREENS : WIN_SCREENS).map((s) => [[s[0], s[1], s[2]] as const, s[3]] as const),
  );
  const gpus: ReadonlyArray<readonly [string, string]> =
    os === 'windows' ? WIN_GPUS : os === 'mac' ? MAC_GPUS : LINUX_GPUS;
  const [glVendor, glRenderer] = rng.pick(gpus);
  const [major, full] = rng.pick(CHROME_VERSIONS);
  const ffMajor = rng.pick(['132', '133', '128']);
  const safariVersion = rng.pick(['17.6', '18.0', '18.1']);
  const userAgent =
    browser === 'chrome' || browser === 'edge'
      ? chromeUa(os, major, browser === 'edge')
      : browser === 'firefox'
        ? `Mozilla/5.0 (${os === 'windows' ? 'Windows NT 10.0; Win64; x64' : os === 'mac' ? 'Macintosh; Intel Mac OS X 10.15' : 'X11; Linux x86_64'}; rv:${ffMajor}.0) Gecko/20100101 Firefox/${ffMajor}.0`
        : `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${safariVersion} Safari/605.1.15`;
  const platform = os === 'windows' ? 'Win32' : os === 'mac' ? 'MacIntel' : 'Linux x86_64';
  const chromium = browser === 'chrome' || browser === 'edge';
  const unmasked =
    browser === 'safari'
      ? { vendor: 'Apple Inc.', renderer: 'Apple GPU' }
      : browser === 'firefox' && os === 'mac'
        ? { vendor: 'Apple', renderer: 'Apple M1, or similar' }
        : { vendor: glVendor, renderer: glRenderer };
  const cores = os === 'mac' ? rng.pick([8, 8, 10, 12]) : rng.pick([4, 8, 8, 12, 16, 20]);
  const fonts = fontsFor(rng, os);
  const engine = `${os}|${browser}|${chromium ? major : browser === 'firefox' ? ffMajor : safariVersion}`;
  // Rendering hashes depend on OS, browser, GPU and fonts; a minority differ per machine (driver builds, hinting).
  const personal = rng.chance(0.6) ? `|${rng.hex(8)}` : '';
  const languages = browser === 'safari' ? locale.languages.slice(0, 1) : locale.languages;
  const availH = h - (os === 'windows' ? rng.pick([40, 48]) : rng.pick([25, 33]));
  const maximised = rng.chance(os === 'windows' ? 0.75 : 0.45);
  const outerW = maximised ? w + (os === 'windows' ? 16 : 0) : Math.round(w * rng.uniform(0.6, 0.95));
  const outerH = maximised
    ? availH + (os === 'windows' ? 16 : 0)
    : Math.round(availH * rng.uniform(0.7, 0.98));
  const innerW = outerW - (os === 'windows' ? 16 : 0);
  const innerH = outerH - rng.int(75, 140);
  const fingerprint: FingerprintEvidence = {
    v: 1,
    user_agent: userAgent,
    platform,
    vendor: chromium ? 'Google Inc.' : browser === 'safari' ? 'Apple Computer, Inc.' : '',
    language: languages[0]!,
    languages,
    timezone: locale.timezone,
    timezone_offset: locale.offset,
    screen: {
      width: w,
      height: h,
      avail_width: w,
      avail_height: availH,
      color_depth: 24,
      pixel_ratio: ratio,
    },
    hardware_concurrency: cores,
    ...(chromium ? { device_memory: rng.pick([8, 8, 8, 4]) } : {}),
    max_touch_points: os === 'windows' && rng.chance(0.12) ? 10 : 0,
    canvas_hash: hash28(`canvas|${engine}|${glRenderer}|${fonts.join(',')}${personal}`),
    webgl: {
      vendor: chromium ? 'WebKit' : browser === 'safari' ? 'WebKit' : 'Mozilla',
      renderer: chromium || browser === 'safari' ? 'WebKit WebGL' : 'Mozilla',
      unmasked_vendor: unmasked.vendor,
      unmasked_renderer: unmasked.renderer,
      version: chromium || browser === 'safari' ? 'WebGL 1.0 (OpenGL ES 2.0 Chromium)' : 'WebGL 1.0',
      hash: hash28(`webgl|${engine}|${unmasked.renderer}`),
    },
    audio_hash: hash28(`audio|${os}|${browser}`),
    math_hash: hash28(`math|${os}|${chromium ? 'v8' : browser}`),
    fonts,
    plugins_count: 5,
    mime_types_count: 2,
    pdf_viewer_enabled: true,
    cookies_enabled: true,
    local_storage: true,
    session_storage: true,
    indexed_db: true,
    ...(rng.chance(0.08) ? { do_not_track: '1' } : {}),
    color_gamut: os === 'mac' ? 'p3' : 'srgb',
    ...(chromium ? { client_hints: hints(os, major, full, browser === 'edge') } : {}),
  };
  return {
    kind: 'desktop',
    label: `${os}-${browser}`,
    userAgent,
    fingerprint,
    worker: workerOf(fingerprint),
    window: {
      inner_width: innerW,
      inner_height: innerH,
      outer_width: outerW,
      outer_height: outerH,
      screen_x: maximised ? -8 : rng.int(0, 200),
      screen_y: maximised ? -8 : rng.int(0, 80),
    },
    tells: { ...CLEAN_TELLS, headless_markers: [] },
    viewport: { w: innerW, h: innerH },
    clockSkewMs: rng.normal(0, 800),
  };
}

/** What a worker reads on an untampered browser: the same values as the page. */
export function workerOf(fp: FingerprintEvidence): WorkerEvidence {
  const renderer = fp.webgl?.unmasked_renderer ?? fp.webgl?.renderer;
  return {
    ...(fp.user_agent !== undefined ? { user_agent: fp.user_agent } : {}),
    ...(fp.platform !== undefined ? { platform: fp.platform } : {}),
    ...(fp.languages !== undefined ? { languages: [...fp.languages] } : {}),
    ...(fp.hardware_concurrency !== undefined ? { hardware_concurrency: fp.hardware_concurrency } : {}),
    ...(fp.timezone !== undefined ? { timezone: fp.timezone } : {}),
    ...(renderer !== undefined ? { webgl_renderer: renderer } : {}),
  };
}
