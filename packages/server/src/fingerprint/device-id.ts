import { createHash } from 'node:crypto';
import { deviceScale } from './page-zoom.ts';

/**
 * Device identity from the stable parts of fingerprint evidence only (SPEC §4): what identifies the
 * hardware and the browser build — rendering hashes, fonts, GPU, screen, platform, cores, memory.
 * What a person changes — page zoom, time zone, languages, window size — never takes part (those
 * are facts of the event: volatile.ts), nor do the user agent (changes with every browser update),
 * timestamps, nonces and behaviour.
 */
export interface StableFingerprint {
  canvas?: string;
  webgl?: string;
  audio?: string;
  math?: string;
  fonts?: string;
  /** `long x short x colour depth @ device scale` (the pixel ratio without the page zoom). */
  screen?: string;
  platform?: string;
  hardware_concurrency?: number;
  device_memory?: number;
  touch_points?: number;
}

type Rec = Record<string, unknown>;

export function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown, max = 256): string | undefined {
  if (typeof value !== 'string') return undefined;
  const s = value.trim().toLowerCase().slice(0, max);
  return s === '' ? undefined : s;
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function strList(value: unknown, maxItems: number): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: string[] = [];
  for (const v of value.slice(0, maxItems)) {
    const s = str(v, 64);
    if (s) out.push(s);
  }
  return out.length > 0 ? out : undefined;
}

function set<K extends keyof StableFingerprint>(
  target: StableFingerprint,
  key: K,
  value: StableFingerprint[K] | undefined,
) {
  if (value !== undefined) target[key] = value;
}

/** Normalise raw evidence into the stable attributes; unknown or malformed fields are ignored. */
export function stableFingerprint(evidence: unknown): StableFingerprint {
  const out: StableFingerprint = {};
  if (!isRecord(evidence)) return out;
  set(out, 'canvas', str(evidence.canvas_hash));
  const webgl = isRecord(evidence.webgl) ? evidence.webgl : undefined;
  if (webgl) {
    const parts = [
      webgl.unmasked_vendor ?? webgl.vendor,
      webgl.unmasked_renderer ?? webgl.renderer,
      webgl.hash,
    ]
      .map((v) => str(v) ?? '')
      .join('|');
    if (parts !== '||') out.webgl = parts;
  }
  set(out, 'audio', str(evidence.audio_hash));
  set(out, 'math', str(evidence.math_hash));
  const fonts = strList(evidence.fonts, 256);
  if (fonts) out.fonts = [...new Set(fonts)].sort().join(',');
  else set(out, 'fonts', str(evidence.fonts_hash));
  const screen = isRecord(evidence.screen) ? evidence.screen : undefined;
  if (screen) {
    const w = num(screen.width);
    const h = num(screen.height);
    const depth = num(screen.color_depth);
    const ratio = num(screen.pixel_ratio);
    if (w !== undefined || h !== undefined || depth !== undefined || ratio !== undefined) {
      // Orientation-independent: a rotated phone is the same device. Chromium keeps screen.width
      // and height through page zoom and folds the zoom into the pixel ratio: deviceScale takes it out.
      const a = Math.max(w ?? 0, h ?? 0);
      const b = Math.min(w ?? 0, h ?? 0);
      const scale =
        ratio === undefined ? 0 : deviceScale(ratio, num(screen.inner_width), num(screen.outer_width));
      out.screen = `${a}x${b}x${depth ?? 0}@${scale}`;
    }
  }
  set(out, 'platform', str(evidence.platform, 64));
  set(out, 'hardware_concurrency', num(evidence.hardware_concurrency));
  set(out, 'device_memory', num(evidence.device_memory));
  set(out, 'touch_points', num(evidence.max_touch_points));
  return out;
}

/** Every stable attribute, in the order the device id hashes them. */
export const STABLE_KEYS: ReadonlyArray<keyof StableFingerprint> = [
  'canvas',
  'webgl',
  'audio',
  'math',
  'fonts',
  'screen',
  'platform',
  'hardware_concurrency',
  'device_memory',
  'touch_points',
];

/** Number of stable attributes present (0: the evidence cannot identify a device). */
export function stableAttributeCount(fp: StableFingerprint): number {
  return STABLE_KEYS.reduce((n, k) => (fp[k] === undefined ? n : n + 1), 0);
}

/** `dev_` + 24 hex of SHA-256 over the stable attributes, or "" when there are none. */
export function deviceIdFromStable(fp: StableFingerprint): string {
  if (stableAttributeCount(fp) === 0) return '';
  const canonical = STABLE_KEYS.map((k) => `${k}=${fp[k] ?? ''}`).join('\n');
  return `dev_${createHash('sha256').update(canonical).digest('hex').slice(0, 24)}`;
}

export function deviceIdFromEvidence(evidence: unknown): string {
  return deviceIdFromStable(stableFingerprint(evidence));
}
