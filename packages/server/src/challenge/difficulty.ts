import { ApiError } from '../errors.ts';
import type { SitesTable } from '../storage/schema.ts';

export const MIN_DIFFICULTY = 1;
export const MAX_DIFFICULTY = 26;
/** Adaptive raises stop here unless the caller asked for more (keeps phones able to solve). */
export const ADAPTIVE_CAP = 22;
const NAMED: Record<string, number> = { low: 14, medium: 17, high: 20 };

/** `difficulty` of a challenge request: integer 1–26 or low|medium|high; undefined when absent. */
export function parseDifficulty(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && Object.hasOwn(NAMED, value)) return NAMED[value];
  if (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= MIN_DIFFICULTY &&
    value <= MAX_DIFFICULTY
  ) {
    return value;
  }
  throw new ApiError(
    'validation_failed',
    'difficulty must be an integer from 1 to 26 or low, medium or high.',
    [
      {
        path: 'body.difficulty',
        message: 'must be an integer from 1 to 26 or one of "low", "medium", "high"',
      },
    ],
  );
}

/** `powFloor` of a site's settings JSON (1–26), undefined when not set or invalid. */
export function parsePowFloor(settingsJson: string): number | undefined {
  try {
    const settings: unknown = JSON.parse(settingsJson);
    const value =
      typeof settings === 'object' && settings !== null
        ? (settings as Record<string, unknown>).powFloor
        : undefined;
    return typeof value === 'number' &&
      Number.isInteger(value) &&
      value >= MIN_DIFFICULTY &&
      value <= MAX_DIFFICULTY
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/** Remembered `parsePowFloor` answers by settings text (services.ts: `memo.powFloor`). */
export interface PowFloors {
  get(settingsJson: string): number | undefined;
}

/** The site's floor: `powFloor` in site settings (1–26) when set, otherwise the configured default. */
export function siteFloor(
  site: SitesTable,
  configFloor: number,
  floors: PowFloors = { get: parsePowFloor },
): number {
  return floors.get(site.settings) ?? configFloor;
}

/** +1 per doubling of the recent challenge rate above `free` requests. */
export function rateBump(rate: number, free = 5): number {
  if (rate <= free) return 0;
  return Math.min(6, Math.floor(Math.log2(rate / free)) + 1);
}

/** Risk of the decision asking for the challenge: high +2, critical +4, medium +1. */
export function riskBump(risk: number | undefined): number {
  if (risk === undefined) return 0;
  if (risk >= 85) return 4;
  if (risk >= 60) return 2;
  if (risk >= 30) return 1;
  return 0;
}

/** The difficulty used: max(requested, floor) plus adaptive raises, within 1–26. */
export function effectiveDifficulty(options: {
  requested: number | undefined;
  floor: number;
  ipRate: number;
  deviceRate: number;
  risk: number | undefined;
}): number {
  const base = Math.max(options.requested ?? options.floor, options.floor);
  const bump = Math.max(rateBump(options.ipRate), rateBump(options.deviceRate)) + riskBump(options.risk);
  if (bump === 0) return Math.min(base, MAX_DIFFICULTY);
  return Math.min(MAX_DIFFICULTY, Math.max(base, Math.min(ADAPTIVE_CAP, base + bump)));
}
