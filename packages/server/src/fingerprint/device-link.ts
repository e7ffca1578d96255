import { createHash } from 'node:crypto';
import type { HotState } from '../state/hot-state.ts';
import { deviceIdFromStable, STABLE_KEYS, type StableFingerprint } from './device-id.ts';

/**
 * Which known device a registration names (docs/evidence.md, "Device identity"):
 * - `exact`: this stable fingerprint was seen before on the site; its device.
 * - `visitor`: a new fingerprint, but the first-party visitor id (the SDK's localStorage) names a
 *   known device: the storage outlives a fingerprint change.
 * - `fuzzy`: a new fingerprint and no known visitor id, but a known device of the site with the
 *   same hardware and fonts (platform, screen, cores, memory, touch points, fonts: its block) and
 *   an older version of the same browser differs in at most two of the four renders (canvas,
 *   WebGL, audio, math) and has at least two of them equal: a browser update re-rendering. One
 *   such device only; two equally close ones link to neither.
 * - `new`: none of these; the device id is the fingerprint's own.
 * A visitor id naming another device than a known fingerprint is `visitorConflict` (the fingerprint
 * wins: it is measured, the storage is whatever the client sends).
 */
export type DeviceLinkKind = 'exact' | 'visitor' | 'fuzzy' | 'new';

export interface DeviceLink {
  deviceId: string;
  /** The evidence's own stable hash (`dev_…`); differs from `deviceId` when linked. */
  fingerprintId: string;
  link: DeviceLinkKind;
  /** 1 for exact and new, 0.95 for the visitor id; fuzzy: the share of the 10 stable components kept (0.8–0.9). */
  confidence: number;
  visitorConflict: boolean;
}

/** Links are kept this long after the device was last seen (rewritten at most daily). */
export const DEVICE_LINK_TTL_MS = 90 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const VISITOR_CONFIDENCE = 0.95;
/** Devices remembered per block and site (most recently seen first). */
const BLOCK_DEVICES = 16;
/** What a browser update may re-render, and what it leaves alone (installed fonts are the system's). */
const RENDER_KEYS = ['canvas', 'webgl', 'audio', 'math'] as const;
const BLOCK_KEYS = [
  'platform',
  'screen',
  'hardware_concurrency',
  'device_memory',
  'touch_points',
  'fonts',
] as const;
/** Renders that may differ and must be equal for a fuzzy link, and block attributes a block needs. */
const MAX_RENDER_CHANGES = 2;
const MIN_EQUAL_RENDERS = 2;
const MIN_BLOCK_ATTRIBUTES = 3;

/** One device of a block: its id, render hashes, browser family and major version. */
interface BlockEntry {
  d: string;
  r: Array<string | null>;
  b: string;
  v: number;
  day: number;
}

const short = (value: string | number | undefined) =>
  value === undefined ? null : createHash('sha256').update(String(value)).digest('hex').slice(0, 12);

/** Browser family and major version from a user agent (`null` when it names none). */
export function browserVersion(userAgent: string): { family: string; major: number } | null {
  const m = /(Firefox|FxiOS|CriOS|Chrome)\/(\d+)/i.exec(userAgent);
  if (m) return { family: m[1]!.toLowerCase(), major: Number(m[2]) };
  const safari = /Version\/(\d+)[^)]*Safari/i.exec(userAgent);
  return safari ? { family: 'safari', major: Number(safari[1]) } : null;
}

function blockKey(siteId: string, fp: StableFingerprint): string | null {
  const present = BLOCK_KEYS.filter((k) => fp[k] !== undefined).length;
  if (present < MIN_BLOCK_ATTRIBUTES) return null;
  const canonical = BLOCK_KEYS.map((k) => `${k}=${fp[k] ?? ''}`).join('\n');
  return `dlb:${siteId}:${short(canonical)}`;
}

const fingerprintKey = (siteId: string, id: string) => `dlf:${siteId}:${id}`;
const visitorKey = (siteId: string, visitor: string) => `dlv:${siteId}:${visitor}`;

/** `device|day` values: the device, and the day it was written (rewritten once a day at most). */
function parseLink(value: string | null): { device: string; day: number } | null {
  if (!value) return null;
  const cut = value.indexOf('|');
  return cut < 0 ? null : { device: value.slice(0, cut), day: Number(value.slice(cut + 1)) };
}

function parseBlock(value: string | null): BlockEntry[] {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? (parsed as BlockEntry[]) : [];
  } catch {
    return [];
  }
}

/**
 * The one closest device a browser update could have turned into `renders`: renders absent on
 * both sides are not compared; at most two compared ones differ and at least two are equal.
 * Null when there is none, or two equally close ones.
 */
function fuzzyMatch(
  entries: BlockEntry[],
  renders: Array<string | null>,
  browser: { family: string; major: number },
): { device: string; confidence: number } | null {
  let best: { device: string; changes: number; confidence: number } | null = null;
  let tie = false;
  for (const e of entries) {
    if (e.b !== browser.family || !(browser.major > e.v)) continue;
    let compared = 0;
    let equal = 0;
    renders.forEach((r, i) => {
      if (r === null && e.r[i] === null) return;
      compared++;
      if (r === e.r[i]) equal++;
    });
    const changes = compared - equal;
    if (changes > MAX_RENDER_CHANGES || equal < MIN_EQUAL_RENDERS) continue;
    if (!best || changes < best.changes) {
      best = { device: e.d, changes, confidence: (STABLE_KEYS.length - changes) / STABLE_KEYS.length };
      tie = false;
    } else if (changes === best.changes && e.d !== best.device) tie = true;
  }
  return best && !tie ? { device: best.device, confidence: best.confidence } : null;
}

/**
 * Name the device of a registration and remember it (at most one write per key and day). `""`
 * when the evidence has no stable attribute (SPEC: no evidence, no device; the visitor id alone
 * names none either).
 */
export async function linkDevice(
  h: HotState,
  siteId: string,
  stable: StableFingerprint,
  visitorId: string,
  userAgent: string,
  now: number,
): Promise<DeviceLink> {
  const fingerprintId = deviceIdFromStable(stable);
  if (fingerprintId === '')
    return { deviceId: '', fingerprintId, link: 'new', confidence: 1, visitorConflict: false };
  const block = blockKey(siteId, stable);
  const [fpValue, visitorValue, blockValue] = await Promise.all([
    h.get(fingerprintKey(siteId, fingerprintId)),
    visitorId ? h.get(visitorKey(siteId, visitorId)) : null,
    block ? h.get(block) : null,
  ]);
  const known = parseLink(fpValue);
  const visitor = parseLink(visitorValue);
  const entries = parseBlock(blockValue);
  const renders = RENDER_KEYS.map((k) => short(stable[k]));
  const browser = browserVersion(userAgent);

  let out: DeviceLink;
  if (known) {
    const visitorConflict = visitor !== null && visitor.device !== known.device;
    out = { deviceId: known.device, fingerprintId, link: 'exact', confidence: 1, visitorConflict };
  } else if (visitor) {
    const confidence = VISITOR_CONFIDENCE;
    out = { deviceId: visitor.device, fingerprintId, link: 'visitor', confidence, visitorConflict: false };
  } else {
    const fuzzy = browser ? fuzzyMatch(entries, renders, browser) : null;
    out = fuzzy
      ? {
          deviceId: fuzzy.device,
          fingerprintId,
          link: 'fuzzy',
          confidence: fuzzy.confidence,
          visitorConflict: false,
        }
      : { deviceId: fingerprintId, fingerprintId, link: 'new', confidence: 1, visitorConflict: false };
  }

  const day = Math.floor(now / DAY_MS);
  const stale = (v: { device: string; day: number } | null) =>
    !v || v.device !== out.deviceId || v.day !== day;
  const writes: Array<unknown> = [];
  const value = `${out.deviceId}|${day}`;
  if (stale(known)) writes.push(h.set(fingerprintKey(siteId, fingerprintId), value, DEVICE_LINK_TTL_MS));
  // A conflicting visitor id keeps naming its own device: the fingerprint does not take it over.
  if (visitorId && !out.visitorConflict && stale(visitor))
    writes.push(h.set(visitorKey(siteId, visitorId), value, DEVICE_LINK_TTL_MS));
  if (block && browser) {
    const mine = entries.find((e) => e.d === out.deviceId);
    const same =
      mine?.day === day &&
      mine.b === browser.family &&
      mine.v === browser.major &&
      mine.r.join() === renders.join();
    if (!same) {
      const entry: BlockEntry = { d: out.deviceId, r: renders, b: browser.family, v: browser.major, day };
      const next = [entry, ...entries.filter((e) => e.d !== out.deviceId)].slice(0, BLOCK_DEVICES);
      writes.push(h.set(block, JSON.stringify(next), DEVICE_LINK_TTL_MS));
    }
  }
  await Promise.all(writes);
  return out;
}
