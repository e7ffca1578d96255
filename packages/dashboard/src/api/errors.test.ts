import { describe, expect, it } from 'vitest';
import { ApiError, celErrorPosition, describeError, errorFromResponse, fieldErrors } from './errors.ts';

describe('errorFromResponse', () => {
  it('maps the error envelope', () => {
    const e = errorFromResponse(400, {
      success: false,
      error: {
        code: 'validation_failed',
        message: 'Invalid body.name.',
        details: [{ path: 'body.name', message: 'is required' }, { bad: 1 }],
      },
    });
    expect(e).toBeInstanceOf(ApiError);
    expect([e.status, e.code, e.message]).toEqual([400, 'validation_failed', 'Invalid body.name.']);
    expect(e.details).toEqual([{ path: 'body.name', message: 'is required' }]);
  });

  it('recognises an expired session, a plan gate and a missing resource', () => {
    const body = (code: string) => ({ success: false, error: { code, message: 'x' } });
    expect(errorFromResponse(401, body('unauthorized')).isUnauthorized).toBe(true);
    expect(errorFromResponse(401, body('invalid_credentials')).isUnauthorized).toBe(false);
    expect(errorFromResponse(402, body('plan_required')).isPlanRequired).toBe(true);
    expect(errorFromResponse(404, body('not_found')).isNotFound).toBe(true);
  });

  it('falls back to the status without an envelope, and reads Retry-After', () => {
    const e = errorFromResponse(503, '<html>', '7');
    expect([e.code, e.message, e.retryAfter]).toEqual([
      'http_503',
      'The server is not available right now.',
      7,
    ]);
    expect(errorFromResponse(418, null).message).toBe('HTTP 418.');
  });

  it('describes any thrown value', () => {
    expect(describeError(new ApiError(403, 'forbidden', 'No.'))).toEqual({
      message: 'No.',
      code: 'forbidden',
    });
    expect(describeError(new Error('boom'))).toEqual({ message: 'boom', code: 'client_error' });
  });
});

describe('fieldErrors', () => {
  it('groups details by field without the body prefix', () => {
    expect(
      fieldErrors([
        { path: 'body.expression', message: 'a' },
        { path: 'body.expression', message: 'b' },
        { path: 'querystring.siteId', message: 'c' },
      ]),
    ).toEqual({ expression: ['a', 'b'], 'querystring.siteId': ['c'] });
  });
});

describe('celErrorPosition', () => {
  it('reads the code frame and caret', () => {
    const message =
      'Unknown variable: foo\n\n>    1 | event.tpe == "login" && foo\n                                 ^';
    expect(celErrorPosition(message)).toEqual({
      summary: 'Unknown variable: foo',
      position: { line: 1, column: 25 },
    });
  });

  it('reads "at line L, column C"', () => {
    expect(celErrorPosition('Unexpected token ) at line 2, column 18').position).toEqual({
      line: 2,
      column: 18,
    });
  });

  it('has no position when the message names none', () => {
    expect(celErrorPosition('expression must be a bool, it is int')).toEqual({
      summary: 'expression must be a bool, it is int',
      position: null,
    });
  });
});
