import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import { normaliseOrigins, originProblem } from './origins.ts';

describe('origins', () => {
  it.each([
    'https://shop.example',
    'http://localhost:3000',
    'http://127.0.0.1:8080',
    'http://[::1]:8080',
    'https://xn--bcher-kva.example',
  ])('accepts %s', (origin) => {
    expect(originProblem(origin)).toBeNull();
  });

  it.each([
    'https://shop.example/',
    'https://shop.example/a',
    'https://shop.example?',
    'https://shop.example#',
    'https://a@shop.example',
    'ws://shop.example',
    'file:///etc/passwd',
    'https://shop.example:443',
    'http://shop.example:80',
    'HTTPS://shop.example',
    ' https://shop.example',
    'https://bücher.example',
    '*',
    'https://*.shop.example',
    'https://shop*.example',
    '',
  ])('refuses %j', (origin) => {
    expect(originProblem(origin)).not.toBeNull();
  });

  it('suggests the canonical form', () => {
    expect(originProblem('https://Shop.Example:443')).toContain('https://shop.example');
  });

  it('lists every bad entry and drops duplicates', () => {
    expect(normaliseOrigins(['https://a.example', 'https://a.example'])).toEqual(['https://a.example']);
    try {
      normaliseOrigins(['x', 'https://a.example', 'https://a.example/']);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      expect(e.code).toBe('validation_failed');
      expect(e.details?.map((d) => d.path)).toEqual(['body.allowedOrigins.0', 'body.allowedOrigins.2']);
    }
  });
});
