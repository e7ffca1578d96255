/**
 * Hashes that let the in-process hot state keep numbers instead of long string keys.
 *
 * keyHash gives 52 bits (a double holds them exactly), so a key costs 8 bytes instead of a
 * ~70-character string. Two different keys share a hash with probability about n / 2^52 for n
 * stored keys (about 1 in 4.5 billion per lookup with a million keys): they would then share a
 * counter. That is accepted and documented (docs/architecture.md, Hot state).
 */

/** The murmur3 32-bit finaliser: spreads every input bit over the output. */
export function fmix32(h: number): number {
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * A 52-bit hash of `key` and `salt` (a whole number ≥ 0 below 2^53, e.g. a window length, that
 * keeps the same key apart in different roles). Never 0 (the stores use 0 for "free").
 */
export function keyHash(key: string, salt: number): number {
  let a = 0x811c9dc5 ^ key.length;
  let b = 0x9e3779b9;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b + c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  const lo = salt >>> 0;
  const hi = Math.floor(salt / 0x1_0000_0000) >>> 0;
  const h1 = fmix32(a ^ lo ^ Math.imul(hi, 0x27d4eb2f));
  const h2 = fmix32(b ^ Math.imul(lo, 0x165667b1) ^ hi);
  const hash = (h2 & 0xfffff) * 0x1_0000_0000 + h1;
  return hash === 0 ? 1 : hash;
}

/** A 32-bit hash of a distinct-count member (FNV-1a, finalised). */
export function memberHash(member: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < member.length; i++) h = Math.imul(h ^ member.charCodeAt(i), 0x01000193);
  return fmix32(h);
}
