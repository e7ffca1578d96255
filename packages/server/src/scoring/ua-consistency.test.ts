import { describe, expect, it } from 'vitest';
import { uaInconsistencies, uaOs } from './ua-consistency.ts';

const WIN_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MAC_FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:132.0) Gecko/20100101 Firefox/132.0';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const OPERA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0';
const IPAD_DESKTOP =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

const hints = (platform: string, version: string, mobile = false) => ({
  brands: [
    { brand: 'Google Chrome', version },
    { brand: 'Chromium', version },
    { brand: 'Not_A Brand', version: '24' },
  ],
  mobile,
  platform,
});

describe('User-Agent consistency', () => {
  it('names the OS a User-Agent claims', () => {
    expect(uaOs(WIN_CHROME)).toBe('windows');
    expect(uaOs(ANDROID_CHROME)).toBe('android');
    expect(uaOs(MAC_FIREFOX)).toBe('mac');
  });

  it('finds nothing in real browsers', () => {
    expect(
      uaInconsistencies(WIN_CHROME, { platform: 'Win32', client_hints: hints('Windows', '131') }),
    ).toEqual([]);
    expect(
      uaInconsistencies(ANDROID_CHROME, {
        platform: 'Linux armv81',
        client_hints: hints('Android', '131', true),
      }),
    ).toEqual([]);
    expect(uaInconsistencies(MAC_FIREFOX, { platform: 'MacIntel' })).toEqual([]);
    // Opera's own brand is its product version; the Chromium brand matches Chrome/130.
    const opera = {
      brands: [{ brand: 'Opera', version: '115' }, ...hints('Windows', '130').brands],
      platform: 'Windows',
    };
    expect(uaInconsistencies(OPERA, { platform: 'Win32', client_hints: opera })).toEqual([]);
    // An iPad asking for the desktop site claims a Mac and reports MacIntel.
    expect(uaInconsistencies(IPAD_DESKTOP, { platform: 'MacIntel', max_touch_points: 5 })).toEqual([]);
    expect(uaInconsistencies(WIN_CHROME, undefined)).toEqual([]);
  });

  it('catches a Windows Chrome UA on a Linux machine (a UA switcher or a copied UA string)', () => {
    expect(
      uaInconsistencies(WIN_CHROME, { platform: 'Linux x86_64', client_hints: hints('Linux', '131') }),
    ).toEqual(['platform', 'client_hints_platform']);
  });

  it('catches phone and version contradictions in Client Hints', () => {
    expect(uaInconsistencies(ANDROID_CHROME, { client_hints: hints('Android', '131', false) })).toEqual([
      'client_hints_mobile',
    ]);
    expect(uaInconsistencies(WIN_CHROME, { client_hints: hints('Windows', '124') })).toEqual([
      'client_hints_version',
    ]);
  });

  it('catches Client Hints under a Firefox or Safari UA: only Chromium has them', () => {
    expect(
      uaInconsistencies(MAC_FIREFOX, { platform: 'MacIntel', client_hints: hints('macOS', '131') }),
    ).toEqual(['client_hints_without_chromium']);
  });
});
