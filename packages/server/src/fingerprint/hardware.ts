import { createHash } from 'node:crypto';
import type { HotState } from '../state/hot-state.ts';
import { STABLE_KEYS, type StableFingerprint } from './device-id.ts';

/**
 * Hardware profile: the stable fingerprint without the rendering hashes that anti-detect browsers
 * and canvas-noise extensions randomise (canvas, audio, the WebGL image hash). What stays is the
 * machine and its set-up: GPU vendor and renderer strings, screen, platform, cores, memory, touch
 * points, fonts and the JavaScript engine's math hash (time zone and languages are volatile facts
 * of the event, in neither). A browser that shows
 * a new device id on every page while its profile stays put is rotating its fingerprint.
 *
 * Profiles collide far more than device ids (identical laptops and phones of one model, set up
 * alike), so they only ever count *together* with other evidence (signals/payments.ts).
 */
/** The rendering hashes anti-detect browsers randomise; the WebGL one is cut out of `webgl` (gpu()). */
const RANDOMISED = new Set<keyof StableFingerprint>(['canvas', 'audio']);
const HARDWARE_KEYS = STABLE_KEYS.filter((k) => !RANDOMISED.has(k));

/** Fewer attributes than this cannot describe a machine: no profile. */
const HARDWARE_MIN_ATTRIBUTES = 5;

/** The GPU part of `webgl` (`vendor|renderer|hash`): vendor and renderer, without the image hash. */
function gpu(webgl: string | undefined): string | undefined {
  if (webgl === undefined) return undefined;
  const cut = webgl.lastIndexOf('|');
  const strings = cut < 0 ? webgl : webgl.slice(0, cut);
  return strings.replaceAll('|', '') === '' ? undefined : strings;
}

/** `hw_` + 16 hex of SHA-256 over the hardware attributes, or "" when there are too few. */
export function hardwareProfileFromStable(fp: StableFingerprint): string {
  const values: Partial<Record<keyof StableFingerprint, string | number | undefined>> = {
    ...fp,
    webgl: gpu(fp.webgl),
  };
  let present = 0;
  for (const k of HARDWARE_KEYS) if (values[k] !== undefined) present++;
  if (present < HARDWARE_MIN_ATTRIBUTES) return '';
  const canonical = HARDWARE_KEYS.map((k) => `${k}=${values[k] ?? ''}`).join('\n');
  return `hw_${createHash('sha256').update(canonical).digest('hex').slice(0, 16)}`;
}

/**
 * A fingerprint names exactly one hardware profile (its id hashes a superset of the profile's
 * attributes; a linked device, device-link.ts, keeps the latest), so the server side, which only
 * has the token's device id, finds the profile here.
 * Written when the token is issued (POST /fingerprint), so every token's device has it.
 */
export const HARDWARE_MAP_TTL_MS = 24 * 60 * 60 * 1000;
/** A process rewrites a device's entry at most this often (page loads repeat it). */
const REWRITE_MS = 60 * 60 * 1000;

export function hardwareMapKey(siteId: string, deviceId: string): string {
  return `hwp:${siteId}:${deviceId}`;
}

const REMEMBERED_WRITES = 50_000;

/** The device → hardware profile entries this process wrote and when (one per process, services.ts). */
export class HardwareProfileWrites {
  private readonly written = new Map<string, number>();
  /** The hot state the entries were written to (another one, e.g. a test's fresh store, starts over). */
  private store: HotState | null = null;

  /** Remember `deviceId → profile` (skipped when this process wrote it within the last hour). */
  async remember(h: HotState, siteId: string, deviceId: string, profile: string, now: number): Promise<void> {
    if (!deviceId || !profile) return;
    const seen = this.written;
    if (this.store !== h) {
      seen.clear();
      this.store = h;
    }
    const key = hardwareMapKey(siteId, deviceId);
    const at = seen.get(key);
    if (at !== undefined && now - at >= 0 && now - at < REWRITE_MS) return;
    if (seen.size >= REMEMBERED_WRITES) seen.clear();
    seen.set(key, now);
    await h.set(key, profile, HARDWARE_MAP_TTL_MS);
  }
}

/** The hardware profile of a device (as remembered when its token was issued), "" when unknown. */
export async function hardwareProfileOf(h: HotState, siteId: string, deviceId: string): Promise<string> {
  if (!deviceId) return '';
  return (await h.get(hardwareMapKey(siteId, deviceId))) ?? '';
}
