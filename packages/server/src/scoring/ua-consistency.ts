import { isRecord } from '../fingerprint/device-id.ts';

export type Os = 'windows' | 'mac' | 'linux' | 'android' | 'ios' | 'chromeos' | 'other';

/** Operating system the User-Agent string claims. */
export function uaOs(ua: string): Os {
  if (/Android/.test(ua)) return 'android';
  if (/iPhone|iPad|iPod/.test(ua)) return 'ios';
  if (/Windows/.test(ua)) return 'windows';
  if (/CrOS/.test(ua)) return 'chromeos';
  if (/Macintosh|Mac OS X/.test(ua)) return 'mac';
  if (/Linux|X11/.test(ua)) return 'linux';
  return 'other';
}

/**
 * Operating systems a `navigator.platform` value is consistent with. Android and ChromeOS report
 * "Linux …"; iPads asking for desktop sites claim a Mac and report "MacIntel".
 */
function platformFits(platform: string, os: Os): boolean | null {
  if (/^Win/i.test(platform)) return os === 'windows';
  if (/^Mac/i.test(platform)) return os === 'mac' || os === 'ios';
  if (/^(iPhone|iPad|iPod)/.test(platform)) return os === 'ios';
  if (/^Linux|^Android|^X11/i.test(platform)) return os === 'linux' || os === 'android' || os === 'chromeos';
  return null;
}

/** Client Hints `platform` (Sec-CH-UA-Platform) names. */
const HINT_OS: Record<string, Os> = {
  Windows: 'windows',
  macOS: 'mac',
  Linux: 'linux',
  Android: 'android',
  iOS: 'ios',
  'Chrome OS': 'chromeos',
  'Chromium OS': 'chromeos',
};

/**
 * Where the browser's own reports contradict the User-Agent it sends (a UA switcher or a script
 * with a copied UA string running a real engine):
 * - `platform`: navigator.platform names another operating system;
 * - `client_hints_platform`, `client_hints_mobile`: User-Agent Client Hints disagree on the
 *   operating system or on being a phone;
 * - `client_hints_version`: the Chromium brand's major version is not the UA's Chrome version;
 * - `client_hints_without_chromium`: Client Hints exist (only Chromium engines have them) while
 *   the UA claims Firefox or Safari.
 */
export function uaInconsistencies(
  ua: string,
  fp: Record<string, unknown> | undefined,
  os: Os = uaOs(ua),
): string[] {
  if (!fp || ua === '') return [];
  const out: string[] = [];
  const platform = typeof fp.platform === 'string' ? fp.platform : '';
  if (os !== 'other' && platform !== '' && platformFits(platform, os) === false) out.push('platform');
  const hints = isRecord(fp.client_hints) ? fp.client_hints : undefined;
  if (!hints) return out;
  const chromium = /Chrome\/|CriOS\/|Edg\//.test(ua);
  if (!chromium) {
    if (/Firefox\/|Version\/[\d.]+ .*Safari\//.test(ua)) out.push('client_hints_without_chromium');
    return out;
  }
  const hintOs = typeof hints.platform === 'string' ? HINT_OS[hints.platform] : undefined;
  const sameFamily = (a: Os, b: Os) =>
    a === b || (a === 'linux' && b === 'chromeos') || (a === 'chromeos' && b === 'linux');
  if (hintOs && os !== 'other' && !sameFamily(hintOs, os)) out.push('client_hints_platform');
  if (typeof hints.mobile === 'boolean' && hints.mobile !== /Mobile/.test(ua))
    out.push('client_hints_mobile');
  const major = /(?:Chrome|CriOS)\/(\d+)/.exec(ua)?.[1];
  const brands = Array.isArray(hints.brands) ? hints.brands.filter(isRecord) : [];
  // The Chromium brand carries the engine version in every Chromium browser (Opera's own brand does not).
  const brand = brands.find((b) => b.brand === 'Chromium') ?? brands.find((b) => b.brand === 'Google Chrome');
  if (major && brand && typeof brand.version === 'string' && brand.version.split('.')[0] !== major)
    out.push('client_hints_version');
  return out;
}
