import { describe, expect, it } from 'vitest';
import { TargetCache } from './target-cache.ts';

const strict = { unsafeTargets: false, privateSuffixes: ['.internal'] };

describe('send-time target checks reused per URL', () => {
  it('resolves a name once per recheck interval, and checks the new answers after it', async () => {
    let clock = 0;
    const lookups: string[] = [];
    let answer = '93.184.216.34';
    const cache = new TargetCache(
      strict,
      async (host) => {
        lookups.push(host);
        return [{ address: answer, family: 4 }];
      },
      1_000,
      16,
      () => clock,
    );
    const first = await cache.resolve('https://hooks.example.com/in');
    expect(first).toMatchObject({ ok: true, address: '93.184.216.34' });
    expect(await cache.resolve('https://hooks.example.com/in')).toBe(first);
    expect(lookups).toEqual(['hooks.example.com']);
    // The name now rebinds to a private address: refused once the interval is over.
    answer = '10.0.0.7';
    clock = 1_000;
    expect(await cache.resolve('https://hooks.example.com/in')).toEqual({
      ok: false,
      reason: 'hooks.example.com resolves to 10.0.0.7 is a private address',
    });
    expect(lookups).toHaveLength(2);
  });

  it('keeps the URL rules (refusals are answered from the same check) and a bounded number of URLs', async () => {
    let lookups = 0;
    const cache = new TargetCache(
      strict,
      async () => {
        lookups++;
        return [{ address: '93.184.216.34', family: 4 }];
      },
      60_000,
      2,
      () => 0,
    );
    expect(await cache.resolve('http://hooks.example.com/in')).toMatchObject({ ok: false });
    expect(await cache.resolve('https://a.example.com/')).toMatchObject({ ok: true });
    expect(await cache.resolve('https://b.example.com/')).toMatchObject({ ok: true });
    // Three URLs in a cache of two: the oldest was dropped and is checked again.
    await cache.resolve('http://hooks.example.com/in');
    expect(lookups).toBe(2);
    await cache.resolve('https://a.example.com/');
    expect(lookups).toBe(3);
  });

  it('shares one check between concurrent attempts', async () => {
    let lookups = 0;
    const cache = new TargetCache(strict, async () => {
      lookups++;
      await new Promise((r) => setTimeout(r, 5));
      return [{ address: '93.184.216.34', family: 4 }];
    });
    await Promise.all(Array.from({ length: 10 }, () => cache.resolve('https://hooks.example.com/')));
    expect(lookups).toBe(1);
  });
});
