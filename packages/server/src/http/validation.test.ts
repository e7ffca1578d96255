import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { compile, firstErrorDetails, isDateTime, schemaError, schemaValidator } from './validation.ts';

describe('the two wordings of a schema error', () => {
  const schema = Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      role: Type.Union([Type.Literal('owner'), Type.Literal('viewer')]),
    },
    { additionalProperties: false },
  );
  const check = compile(schema);

  it('every: one detail per path, the message naming the first', () => {
    const error = schemaError(check, { name: '', role: 'x', extra: 1 }, 'body', 'every');
    expect(error.message).toBe('Invalid body.extra: is not an allowed property.');
    expect(error.details).toEqual([
      { path: 'body.extra', message: 'is not an allowed property' },
      { path: 'body.name', message: 'Expected string length greater or equal to 1' },
      { path: 'body.role', message: 'must be one of owner, viewer' },
    ]);
  });

  it("first: the first error in a JSON Schema validator's words, a union's tries before it", () => {
    expect(schemaError(check, {}, 'body', 'first').message).toBe(
      "Invalid body: body.name must have required property 'name'",
    );
    // Each form tried: its wrong type, then its constant; then the union's own error.
    const tried = ['must be string', 'must be equal to constant'];
    expect(firstErrorDetails(check.Errors({ name: 'a', role: 7 }).First(), 'querystring')).toEqual(
      [...tried, ...tried, 'must match a schema in anyOf'].map((message) => ({
        path: 'querystring.role',
        message,
      })),
    );
    expect(firstErrorDetails(check.Errors({ name: 'a', role: 'x' }).First(), 'body')[0]).toEqual({
      path: 'body.role',
      message: 'must be equal to constant',
    });
  });

  it('compiles each schema once', () => {
    expect(compile(schema)).toBe(check);
  });
});

describe("the `first` routes' strings", () => {
  const name = Type.Object({ name: Type.String({ maxLength: 2, pattern: '^.+$' }) });
  const validate = (wording: 'every' | 'first', value: string) =>
    schemaValidator(wording)({ schema: name, httpPart: 'body' })({ name: value });

  it('count code points, as JSON Schema does; the scoring API counts UTF-16 units', () => {
    expect(validate('first', '\u{1F600}\u{1F600}')).toEqual({ value: { name: '\u{1F600}\u{1F600}' } });
    const over = validate('first', '\u{1F600}\u{1F600}\u{1F600}') as { error: Error };
    expect(over.error.message).toBe('Invalid body: body.name must NOT have more than 2 characters');
    expect('error' in validate('every', '\u{1F600}\u{1F600}')).toBe(true);
  });

  it('leave the route schema as it is', () => {
    expect(name.properties.name.maxLength).toBe(2);
    expect(compile(name).Check({ name: '\u{1F600}\u{1F600}' })).toBe(false);
  });
});

describe('date-time', () => {
  it('is RFC 3339 with a time zone', () => {
    for (const ok of ['2026-01-02T03:04:05Z', '2026-01-02t03:04:05.123+01:00', '2024-02-29 23:59:59-0130']) {
      expect(isDateTime(ok), ok).toBe(true);
    }
    for (const bad of [
      '2026-01-02',
      '2026-01-02T03:04:05',
      '2025-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      'x',
    ]) {
      expect(isDateTime(bad), bad).toBe(false);
    }
    expect(isDateTime('2016-12-31T23:59:60Z')).toBe(true);
    expect(isDateTime('2016-12-31T22:59:60Z')).toBe(false);
  });
});
