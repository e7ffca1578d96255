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

  it('remembers a lookup for the time it is given', async () => {
    const cache = new SiteKeyCache<string>(60_000);
    await cache.lookup('pk_a', 0, async () => 'site a');
    expect(cache.get('pk_a', 59_999)).toBe('site a');
    expect(cache.get('pk_a', 60_000)).toBeUndefined();
  });

  it('remembers nothing while told not to (a lost change listener), and forgets what it had', async () => {
    const cache = new SiteKeyCache<string>();
    await cache.lookup('pk_a', 0, async () => 'site a');
    cache.remember(false);
    expect(cache.get('pk_a', 1)).toBeUndefined();
    let loads = 0;
    const load = async () => `site a ${++loads}`;
    expect(await cache.lookup('pk_a', 1, load)).toBe('site a 1');
    expect(await cache.lookup('pk_a', 2, load)).toBe('site a 2');
    expect(cache.get('pk_a', 2)).toBeUndefined();
    cache.remember(true);
    await cache.lookup('pk_a', 3, load);
    expect(cache.get('pk_a', 4)).toBe('site a 3');
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

  it('shares one load among the lookups of a key that miss together', async () => {
    const cache = new SiteKeyCache<string>();
    let loads = 0;
    let finish = (_: string) => {};
    const load = () => {
      loads++;
      return new Promise<string>((resolve) => {
        finish = resolve;
      });
    };
    const together = [cache.lookup('pk_a', 0, load), cache.lookup('pk_a', 0, load)];
    finish('site a');
    expect(await Promise.all(together)).toEqual(['site a', 'site a']);
    expect(loads).toBe(1);
  });

  it('does not let a lookup after a change share a load begun before it', async () => {
    const cache = new SiteKeyCache<string>();
    const before = cache.lookup('pk_a', 0, async () => 'old');
    cache.changed();
    const after = cache.lookup('pk_a', 0, async () => 'new');
    expect([await before, await after]).toEqual(['old', 'new']);
    expect(cache.get('pk_a', 1)).toBe('new');
  });
});
