import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatDateTime,
  formatDay,
  formatMs,
  formatNumber,
  formatPercent,
  formatSigned,
  formatTime,
  fromLocalInput,
} from './format.ts';

describe('format', () => {
  const at = '2026-11-21T16:57:17.745Z';

  it('formats dates in the given time zone', () => {
    expect(formatDateTime(at, { locale: 'en-GB', timeZone: 'UTC' })).toBe('21 Nov 2026, 16:57:17');
    expect(formatDateTime(at, { locale: 'en-GB', timeZone: 'Europe/Berlin' })).toBe('21 Nov 2026, 17:57:17');
    expect(formatTime(at, { locale: 'en-GB', timeZone: 'Asia/Tokyo' })).toBe('01:57');
    expect(formatDay(at, { locale: 'en-GB', timeZone: 'UTC' })).toBe('21 Nov');
    expect(formatDateTime(null)).toBe('–');
    expect(formatDateTime('garbage')).toBe('–');
  });

  it('formats numbers for the locale', () => {
    expect(formatNumber(1234567, 0, 'en-US')).toBe('1,234,567');
    expect(formatNumber(1234.5678, 2, 'de-DE')).toBe('1.234,57');
    expect(formatNumber(Number.NaN)).toBe('–');
    expect(formatMs(0.7412, 'en-US')).toBe('0.74 ms');
    expect(formatPercent(0.4213, 'en-US')).toBe('42.1%');
    expect(formatPercent(null)).toBe('–');
  });

  it('counts with the singular or the plural noun', () => {
    expect(formatCount(1, 'payment hash', 'payment hashes', 'en-US')).toBe('1 payment hash');
    expect(formatCount(2, 'payment hash', 'payment hashes', 'en-US')).toBe('2 payment hashes');
    expect(formatCount(1200, 'account', undefined, 'en-US')).toBe('1,200 accounts');
    expect(formatCount(0, 'device', undefined, 'en-US')).toBe('0 devices');
  });

  it('signs scores', () => {
    expect(formatSigned(15, 'en-US')).toBe('+15');
    expect(formatSigned(-20, 'en-US')).toBe('\u221220');
    expect(formatSigned(0, 'en-US')).toBe('0');
  });

  it('turns a local input value into ISO', () => {
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('2026-01-02T03:04')).toMatch(/^2026-01-0\dT\d\d:04:00\.000Z$/);
  });
});
