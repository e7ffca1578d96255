import type { Rng } from './rng.ts';

/**
 * Where a visitor is: time zone (offset in March 2025, after US and before EU daylight-saving
 * changes), navigator.languages as the major browsers report them, and the IP region.
 */
export interface Locale {
  region: 'us' | 'ca' | 'uk' | 'de' | 'fr' | 'es' | 'nl';
  timezone: string;
  offset: number;
  /** Chromium/Firefox style list; Safari often reports just the first entry. */
  languages: string[];
}

const LOCALES: ReadonlyArray<readonly [Locale, number]> = [
  [{ region: 'us', timezone: 'America/New_York', offset: 240, languages: ['en-US', 'en'] }, 20],
  [{ region: 'us', timezone: 'America/Chicago', offset: 300, languages: ['en-US', 'en'] }, 12],
  [{ region: 'us', timezone: 'America/Denver', offset: 360, languages: ['en-US', 'en'] }, 4],
  [{ region: 'us', timezone: 'America/Los_Angeles', offset: 420, languages: ['en-US', 'en'] }, 13],
  [{ region: 'us', timezone: 'America/New_York', offset: 240, languages: ['en-US', 'es-US', 'es'] }, 2],
  [{ region: 'ca', timezone: 'America/Toronto', offset: 240, languages: ['en-CA', 'en-US', 'en'] }, 5],
  [{ region: 'ca', timezone: 'America/Toronto', offset: 240, languages: ['fr-CA', 'fr', 'en'] }, 2],
  [{ region: 'uk', timezone: 'Europe/London', offset: 0, languages: ['en-GB', 'en-US', 'en'] }, 12],
  [{ region: 'de', timezone: 'Europe/Berlin', offset: -60, languages: ['de-DE', 'de', 'en-US', 'en'] }, 10],
  [{ region: 'fr', timezone: 'Europe/Paris', offset: -60, languages: ['fr-FR', 'fr', 'en-US', 'en'] }, 8],
  [{ region: 'es', timezone: 'Europe/Madrid', offset: -60, languages: ['es-ES', 'es'] }, 5],
  [{ region: 'nl', timezone: 'Europe/Amsterdam', offset: -60, languages: ['nl-NL', 'nl', 'en'] }, 5],
];

export function pickLocale(rng: Rng): Locale {
  const l = rng.weighted(LOCALES);
  return { ...l, languages: [...l.languages] };
}

/** Local hour (0–23) of a UTC epoch time in this locale. */
export function localHour(locale: Locale, utcMs: number): number {
  return new Date(utcMs - locale.offset * 60_000).getUTCHours();
}
