/** Dates in the user's time zone and numbers in the user's locale (Intl), one place for both. */

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(options: Intl.DateTimeFormatOptions, locale?: string): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateTimeFormats.set(key, format);
  }
  return format;
}

export interface FormatOptions {
  locale?: string;
  /** IANA zone; default: the user's own. */
  timeZone?: string;
}

function zoned(base: Intl.DateTimeFormatOptions, options: FormatOptions): Intl.DateTimeFormatOptions {
  return options.timeZone ? { ...base, timeZone: options.timeZone } : base;
}

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "21 Nov 2026, 17:57:17" in the user's zone; "–" for nothing. */
export function formatDateTime(
  value: string | number | Date | null | undefined,
  options: FormatOptions = {},
) {
  const date = toDate(value);
  if (!date) return '–';
  return dateTimeFormat(
    zoned(
      {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      },
      options,
    ),
    options.locale,
  ).format(date);
}

/** "17:57" (hour and minute) for chart axes. */
export function formatTime(value: string | number | Date, options: FormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return '–';
  return dateTimeFormat(zoned({ hour: '2-digit', minute: '2-digit' }, options), options.locale).format(date);
}

/** "21 Nov" for chart axes over several days. */
export function formatDay(value: string | number | Date, options: FormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return '–';
  return dateTimeFormat(zoned({ month: 'short', day: 'numeric' }, options), options.locale).format(date);
}

const numberFormats = new Map<string, Intl.NumberFormat>();

export function formatNumber(value: number | null | undefined, maximumFractionDigits = 0, locale?: string) {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const key = `${locale ?? ''}|${maximumFractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits });
    numberFormats.set(key, format);
  }
  return format.format(value);
}

/** A signed score: "+15", "−20", "0". */
export function formatSigned(value: number, locale?: string): string {
  const text = formatNumber(Math.abs(value), 2, locale);
  if (value > 0) return `+${text}`;
  if (value < 0) return `\u2212${text}`;
  return text;
}

/** 0.4213 → "42.1 %" (locale-aware); null → "–". */
export function formatPercent(value: number | null | undefined, locale?: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(value);
}

export function formatMs(value: number, locale?: string): string {
  return `${formatNumber(value, 2, locale)} ms`;
}

/** The user's IANA time zone, shown next to times. */
export function userTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A value for <input type="datetime-local"> in the user's zone. */
export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** <input type="datetime-local"> value (user's zone) → ISO 8601 in UTC; "" → undefined. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** "1 account", "3 accounts": the count formatted, and the singular or plural noun. */
export function formatCount(
  value: number,
  singular: string,
  plural = `${singular}s`,
  locale?: string,
): string {
  return `${formatNumber(value, 0, locale)} ${value === 1 ? singular : plural}`;
}
