import { describe, expect, it } from 'vitest';
import { hashBytes, hashText } from './hash.ts';

describe('hashes', () => {
  it('hashText is stable and 28 hex characters', () => {
    expect(hashText('warden')).toMatch(/^[0-9a-f]{28}$/);
    expect(hashText('warden')).toBe(hashText('warden'));
    expect(hashText('warden')).not.toBe(hashText('warder'));
  });

  it('hashBytes covers every byte of a pixel buffer, aligned or not', () => {
    const pixels = new Uint8ClampedArray(240 * 60 * 4).map((_, i) => (i * 7) & 255);
    const h = hashBytes(pixels);
    expect(h).toMatch(/^[0-9a-f]{28}$/);
    expect(hashBytes(pixels.slice())).toBe(h);
    for (const i of [0, 1, 30_001, pixels.length - 1]) {
      const changed = pixels.slice();
      changed[i] = (changed[i]! + 1) & 255;
      expect(hashBytes(changed)).not.toBe(h);
    }
    const odd = new Uint8Array([1, 2, 3, 4, 5]);
    expect(hashBytes(odd)).toMatch(/^[0-9a-f]{28}$/);
    expect(hashBytes(odd)).not.toBe(hashBytes(new Uint8Array([1, 2, 3, 4, 6])));
    expect(hashBytes(new Uint8Array(new ArrayBuffer(12), 1, 8))).toMatch(/^[0-9a-f]{28}$/);
  });
});
