import { describe, expect, it } from 'vitest';
import { href, matchRoute } from './router.ts';

describe('router', () => {
  it('matches every page', () => {
    expect(matchRoute('/dashboard/')).toEqual({ name: 'overview' });
    expect(matchRoute('/dashboard')).toEqual({ name: 'overview' });
    expect(matchRoute('/dashboard/decisions')).toEqual({ name: 'decisions' });
    expect(matchRoute('/dashboard/decisions/a%20b')).toEqual({ name: 'decision', id: 'a b' });
    expect(matchRoute('/dashboard/clusters/cl_1/')).toEqual({ name: 'cluster', id: 'cl_1' });
    expect(matchRoute('/dashboard/rules/new')).toEqual({ name: 'rule', id: null });
    expect(matchRoute('/dashboard/rules/r1')).toEqual({ name: 'rule', id: 'r1' });
    expect(matchRoute('/dashboard/sso-callback')).toEqual({ name: 'sso-callback' });
    expect(matchRoute('/dashboard/nope/1/2')).toEqual({ name: 'not-found', path: '/dashboard/nope/1/2' });
  });

  it('builds encoded links', () => {
    expect(href('decisions', 'a/b')).toBe('/dashboard/decisions/a%2Fb');
    expect(matchRoute(href('decisions', 'a/b'))).toEqual({ name: 'decision', id: 'a/b' });
  });
});
