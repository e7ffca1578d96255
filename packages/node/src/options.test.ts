import { describe, expect, it } from 'vitest';
import { Warden, type WardenOptions } from './index.ts';

const good = { baseUrl: 'https://warden.example.com', siteKey: 'pk_1', secretKey: 'sk_1' };

function make(options: unknown): Warden {
  return new Warden(options as WardenOptions);
}

describe('new Warden(options)', () => {
  it('names the missing option', () => {
    expect(() => make({})).toThrow(
      new TypeError(
        'new Warden(options): options.baseUrl is required (the URL of your Warden server, e.g. https://warden.example.com).',
      ),
    );
    expect(() => make({ baseUrl: good.baseUrl })).toThrow(/options\.siteKey is required/);
    expect(() => make({ baseUrl: good.baseUrl, siteKey: 'pk' })).toThrow(/options\.secretKey is required/);
    expect(() => make(undefined)).toThrow(/options must be an object/);
  });

  it('rejects wrong types and values with the option name', () => {
    expect(() => make({ ...good, baseUrl: 'warden.example.com' })).toThrow(/options\.baseUrl is not a URL/);
    expect(() => make({ ...good, baseUrl: 'ftp://x' })).toThrow(/must be http\(s\), got ftp:/);
    expect(() => make({ ...good, siteKey: 42 })).toThrow(/options\.siteKey must be a string, got number/);
    expect(() => make({ ...good, timeoutMs: -1 })).toThrow(
      /options\.timeoutMs must be a non-negative number/,
    );
    expect(() => make({ ...good, fetch: 'x' })).toThrow(/options\.fetch must be a function/);
  });

  it('accepts a complete configuration', () => {
    expect(make({ ...good, timeoutMs: 1000, maxRetries: 0 })).toBeInstanceOf(Warden);
  });
});
