import { describe, expect, it } from 'vitest';
import { SITE_KEY_CACHE_TTL_MS, SiteKeyCache } from './site-key-cache.ts';

describe('site key cache', () => {
  it('remembers a lookup until its time is up', async () => {
    const cache = new SiteKeyCache<string>();
    await cache.lookup('pk_a', 1_000, async () => 'site a');
    expect(cache.get('pk_a', 1_000 + SITE_KEY_CACHE_TTL_MS - 1)).toBe('site a');
    expect(cache.get('pk_a', 1_000 + SITE_KEY_CACHE_TTL_MS)).toBeUndefined();
    expect(cache.get('pk_a', 1_000)).toBeUndefined();
  });

  it('forgets everything when a site or workspace changes', async () => {
    const cache = new SiteKeyCache<string>();
    await cache.lookup('pk_a', 0, async () => 'site a');
    cache.changed();
    expect(cache.get('pk_a', 1)).toBeUndefined();
  });

  it('does not remember a lookup that a change may have overtaken', async () => {
    const cache = new SiteKeyCache<string>();
    await cache.lookup('pk_a', 0, async () => {
      cache.changed(); // the row this load read may predate this change
      cache.get('pk_b', 0); // another request meanwhile: the cache is on the new generation
      return 'stale';
    });
    expect(cache.get('pk_a', 1)).toBeUndefined();
  });
});
