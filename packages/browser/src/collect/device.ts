import type { FingerprintEvidence } from '../types.ts';
import { hashText } from '../util/hash.ts';
import { defined, safe, timeBox } from '../util/safe.ts';
import { visitorId } from './visitor.ts';

type ClientHints = NonNullable<FingerprintEvidence['client_hints']>;

interface UADataValues {
  brands?: Array<{ brand: string; version: string }> | undefined;
  mobile?: boolean | undefined;
  platform?: string | undefined;
  platformVersion?: string;
  architecture?: string;
  bitness?: string;
  model?: string;
  uaFullVersion?: string;
}
interface UAData extends UADataValues {
  getHighEntropyValues(hints: string[]): Promise<UADataValues>;
}
export interface NavigatorExtras {
  deviceMemory?: number;
  userAgentData?: UAData;
}

export const nav = (): Navigator & NavigatorExtras => navigator as Navigator & NavigatorExtras;

const cut = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : undefined);

/**
 * The IANA time zone. `Temporal.Now.timeZoneId()` where there is Temporal: the first
 * `Intl.DateTimeFormat()` of a renderer process builds a whole formatter (47–230 ms measured on
 * the CI machine), while Temporal only asks for the zone. The worker uses the same function, so
 * page and worker agree on how the zone is named.
 */
export function timeZone(): string | undefined {
  const T = (globalThis as { Temporal?: { Now?: { timeZoneId?: () => string } } }).Temporal;
  const zone =
    safe(() => T?.Now?.timeZoneId?.()) ?? safe(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  return typeof zone === 'string' && zone ? zone.slice(0, 64) : undefined;
}

/** Floating-point results of Math functions vary with the JS engine and CPU libm. */
function mathHash(): string {
  const m = Math;
  const values = [m.acos(0.123), m.asinh(1), m.atanh(0.5), m.cbrt(100), m.cosh(10), m.expm1(1), m.log1p(10)];
  return hashText(values.map((v) => v.toString()).join(','));
}

function storageWorks(get: () => Storage): boolean | undefined {
  return safe(() => {
    const s = get();
    s.setItem('__wd', '1');
    s.removeItem('__wd');
    return true;
  });
}

/** Navigator, screen, locale and storage attributes: synchronous and cheap (the time zone comes with the render evidence). */
export function deviceAttributes(): FingerprintEvidence {
  const n = nav();
  const languages = safe(() =>
    Array.from(n.languages ?? [])
      .slice(0, 16)
      .map((l) => l.slice(0, 35)),
  );
  const gamut = ['rec2020', 'p3', 'srgb'].find((g) => safe(() => matchMedia(`(color-gamut: ${g})`).matches));
  return defined<FingerprintEvidence>({
    v: 1,
    user_agent: cut(n.userAgent, 512),
    platform: cut(n.platform, 64),
    vendor: cut(n.vendor, 128),
    language: cut(n.language, 35),
    languages,
    timezone_offset: safe(() => new Date().getTimezoneOffset()),
    screen: safe(() => ({
      width: screen.width,
      height: screen.height,
      avail_width: screen.availWidth,
      avail_height: screen.availHeight,
      color_depth: screen.colorDepth,
      pixel_ratio: window.devicePixelRatio,
      // Their ratio is the page zoom in chromium: the server takes it out of the pixel ratio.
      inner_width: Math.max(0, Math.round(window.innerWidth)),
      outer_width: Math.max(0, Math.round(window.outerWidth)),
    })),
    hardware_concurrency: typeof n.hardwareConcurrency === 'number' ? n.hardwareConcurrency : undefined,
    device_memory: typeof n.deviceMemory === 'number' ? n.deviceMemory : undefined,
    max_touch_points: typeof n.maxTouchPoints === 'number' ? n.maxTouchPoints : undefined,
    math_hash: safe(mathHash),
    plugins_count: safe(() => n.plugins.length),
    mime_types_count: safe(() => n.mimeTypes.length),
    pdf_viewer_enabled: safe(() => n.pdfViewerEnabled),
    cookies_enabled: safe(() => n.cookieEnabled),
    local_storage: storageWorks(() => localStorage) ?? false,
    session_storage: storageWorks(() => sessionStorage) ?? false,
    indexed_db: safe(() => typeof indexedDB !== 'undefined'),
    do_not_track: cut(n.doNotTrack ?? undefined, 16),
    color_gamut: gamut,
    visitor_id: visitorId(),
  });
}

/** User-Agent Client Hints, high-entropy values time-boxed (they may take a while or hang). */
export async function clientHints(ms: number): Promise<ClientHints | undefined> {
  const ua = nav().userAgentData;
  if (!ua) return undefined;
  const high = await timeBox(
    () => ua.getHighEntropyValues(['architecture', 'bitness', 'model', 'platformVersion', 'uaFullVersion']),
    ms,
  );
  const v: UADataValues = { ...high, brands: ua.brands, mobile: ua.mobile, platform: ua.platform };
  return defined<ClientHints>({
    brands: v.brands
      ?.slice(0, 16)
      .map((b) => ({ brand: b.brand.slice(0, 64), version: b.version.slice(0, 32) })),
    mobile: v.mobile,
    platform: cut(v.platform, 64),
    platform_version: cut(v.platformVersion, 64),
    architecture: cut(v.architecture, 32),
    bitness: cut(v.bitness, 8),
    model: cut(v.model, 128),
    full_version: cut(v.uaFullVersion, 64),
  });
}
