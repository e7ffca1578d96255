import { describe, expect, it } from 'vitest';
import { SITE_KEY_CACHE_TTL_MS, SiteKeyCache, siteGeneration, sitesChanged } from './site-key-cache.ts';

describe('site key cache', () => {
  it('remembers a lookup until its time is up', () => {
    const cache = new SiteKeyCache<string>();
    cache.set('pk_a', 'site a', 1_000, siteGeneration());
    expect(cache.get('pk_a', 1_000 + SITE_KEY_CACHE_TTL_MS - 1)).toBe('site a');
    expect(cache.get('pk_a', 1_000 + SITE_KEY_CACHE_TTL_MS)).toBeUndefined();
    expect(cache.get('pk_a', 1_000)).toBeUndefined();
  });

  it('forgets everything when a site or workspace changes', () => {
    const cache = new SiteKeyCache<string>();
    cache.set('pk_a', 'site a', 0, siteGeneration());
    sitesChanged();
    expect(cache.get('pk_a', 1)).toBeUndefined();
  });

  it('does not remember a lookup that a change may have overtaken', () => {
    const cache = new SiteKeyCache<string>();
    const before = siteGeneration();
    sitesChanged(); // the row the caller read may predate this change
    cache.set('pk_a', 'stale', 0, before);
    expect(cache.get('pk_a', 1)).toBeUndefined();
  });
});
