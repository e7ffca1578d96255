import { ApiError } from '../errors.ts';

/** Query-string helpers shared by the decision, stats and search routes. */
export function badQuery(path: string, message: string): ApiError {
  return new ApiError('validation_failed', `Invalid ${path}: ${message}.`, [{ path, message }]);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T|$)/;

/**
 * ISO 8601 or epoch milliseconds → epoch milliseconds. A date that does not exist (Feb 30) is
 * refused: Date.parse would move it into the next month.
 */
export function parseTime(value: string | undefined, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = ISO_DATE.exec(value);
  const ms = date ? Date.parse(value) : Number.NaN;
  if (!date || !Number.isFinite(ms) || !dayExists(Number(date[1]), Number(date[2]), Number(date[3])))
    throw badQuery(path, 'is not a valid date-time');
  return ms;
}

function dayExists(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
