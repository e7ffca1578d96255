import type { FingerprintEvidence } from '@warden/protocol';
import { ANDROIDS, CHROME_VERSIONS, IOS_VERSIONS, IPHONES } from './device-data.ts';
import { CLEAN_TELLS, type Device, hash28, workerOf } from './devices.ts';
import type { Locale } from './locales.ts';
import type { Rng } from './rng.ts';

/**
 * Phones. iPhones of one model and iOS version render identically, so their fingerprints differ
 * only by time zone and languages (a real property of Safari, kept on purpose). Android Chrome
 * reports no plugins, which the SDK turns into the soft `no_plugins` headless marker.
 */
export function humanMobile(rng: Rng, locale: Locale): Device {
  return rng.chance(0.55) ? iphone(rng, locale) : android(rng, locale);
}

function iphone(rng: Rng, locale: Locale): Device {
  const [model, w, h, ratio] = rng.pick(IPHONES);
  const ios = rng.pick(IOS_VERSIONS);
  const version = ios.replace('_', '.');
  const userAgent = `Mozilla/5.0 (iPhone; CPU iPhone OS ${ios} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${version} Mobile/15E148 Safari/604.1`;
  const languages = locale.languages.slice(0, 1);
  const fingerprint: FingerprintEvidence = {
    v: 1,
    user_agent: userAgent,
    platform: 'iPhone',
    vendor: 'Apple Computer, Inc.',
    language: languages[0]!,
    languages,
    timezone: locale.timezone,
    timezone_offset: locale.offset,
    screen: { width: w, height: h, avail_width: w, avail_height: h, color_depth: 24, pixel_ratio: ratio },
    hardware_concurrency: 4,
    max_touch_points: 5,
    canvas_hash: hash28(`canvas|ios|${ios}|${model}`),
    webgl: {
      vendor: 'WebKit',
      renderer: 'WebKit WebGL',
      unmasked_vendor: 'Apple Inc.',
      unmasked_renderer: 'Apple GPU',
      version: 'WebGL 1.0',
      hash: hash28(`webgl|ios|${ios}`),
    },
    audio_hash: hash28(`audio|ios|${ios}`),
    math_hash: hash28('math|jsc'),
    fonts: ['Arial', 'Courier New', 'Georgia', 'Helvetica', 'Helvetica Neue', 'Times New Roman', 'Verdana'],
    plugins_count: 5,
    mime_types_count: 2,
    pdf_viewer_enabled: true,
    cookies_enabled: true,
    local_storage: true,
    session_storage: true,
    indexed_db: true,
    color_gamut: 'p3',
  };
  const innerH = h - rng.int(110, 190);
  return {
    kind: 'mobile',
    label: 'ios-safari',
    userAgent,
    fingerprint,
    worker: workerOf(fingerprint),
    window: {
      inner_width: w,
      inner_height: innerH,
      outer_width: w,
      outer_height: h,
      screen_x: 0,
      screen_y: 0,
    },
    tells: { ...CLEAN_TELLS, headless_markers: [] },
    viewport: { w, h: innerH },
    clockSkewMs: rng.normal(0, 400),
  };
}

function android(rng: Rng, locale: Locale): Device {
  const [model, w, h, ratio, gpu, gpuVendor] = rng.pick(ANDROIDS);
  const [major, full] = rng.pick(CHROME_VERSIONS);
  const userAgent = `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`;
  const fingerprint: FingerprintEvidence = {
    v: 1,
    user_agent: userAgent,
    platform: 'Linux armv81',
    vendor: 'Google Inc.',
    language: locale.languages[0]!,
    languages: locale.languages,
    timezone: locale.timezone,
    timezone_offset: locale.offset,
    screen: { width: w, height: h, avail_width: w, avail_height: h, color_depth: 24, pixel_ratio: ratio },
    hardware_concurrency: 8,
    device_memory: rng.pick([4, 8]),
    max_touch_points: 5,
    canvas_hash: hash28(`canvas|android|${major}|${model}`),
    webgl: {
      vendor: 'WebKit',
      renderer: 'WebKit WebGL',
      unmasked_vendor: gpuVendor,
      unmasked_renderer: gpu,
      version: 'WebGL 1.0 (OpenGL ES 2.0 Chromium)',
      hash: hash28(`webgl|android|${gpu}`),
    },
    audio_hash: hash28(`audio|android|${gpuVendor}`),
    math_hash: hash28('math|v8-arm'),
    fonts: ['Noto Color Emoji', 'Noto Sans', 'Roboto', 'Droid Sans'],
    plugins_count: 0,
    mime_types_count: 0,
    pdf_viewer_enabled: false,
    cookies_enabled: true,
    local_storage: true,
    session_storage: true,
    indexed_db: true,
    color_gamut: 'srgb',
    client_hints: {
      brands: [
        { brand: 'Google Chrome', version: major },
        { brand: 'Chromium', version: major },
        { brand: 'Not_A Brand', version: '24' },
      ],
      mobile: true,
      platform: 'Android',
      platform_version: '14.0.0',
      architecture: '',
      bitness: '',
      model,
      full_version: full,
    },
  };
  const innerH = h - rng.int(56, 120);
  return {
    kind: 'mobile',
    label: 'android-chrome',
    userAgent,
    fingerprint,
    worker: workerOf(fingerprint),
    window: {
      inner_width: w,
      inner_height: innerH,
      outer_width: w,
      outer_height: h,
      screen_x: 0,
      screen_y: 0,
    },
    // Android Chrome has navigator.plugins.length === 0: the SDK reports it as a soft marker.
    tells: { ...CLEAN_TELLS, headless_markers: ['no_plugins'] },
    viewport: { w, h: innerH },
    clockSkewMs: rng.normal(0, 400),
  };
}
