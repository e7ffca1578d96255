import { describe, expect, it } from 'vitest';
import { parseSsoFragment } from './fragment.ts';

describe('parseSsoFragment', () => {
  it('reads a URL-encoded fragment', () => {
    const r = parseSsoFragment(
      '#accessToken=eyJ.a%2Bb&refreshToken=wrt_x%3D&expiresIn=3600&workspaceId=w%201',
    );
    expect(r).toEqual({
      ok: true,
      session: { accessToken: 'eyJ.a+b', refreshToken: 'wrt_x=', expiresIn: 3600, workspaceId: 'w 1' },
    });
  });

  it('accepts the fragment without #', () => {
    expect(parseSsoFragment('accessToken=a&refreshToken=b&expiresIn=60&workspaceId=w').ok).toBe(true);
  });

  it('names what is missing', () => {
    const r = parseSsoFragment('#accessToken=a&expiresIn=abc');
    expect(r).toEqual({
      ok: false,
      error: 'The sign-in answer is incomplete (missing refreshToken, workspaceId, expiresIn).',
    });
    expect(parseSsoFragment('').ok).toBe(false);
  });

  it('passes an error from the identity provider through', () => {
    expect(parseSsoFragment('#error=access_denied&error_description=Not%20assigned')).toEqual({
      ok: false,
      error: 'access_denied: Not assigned',
    });
  });
});
