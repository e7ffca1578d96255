/** Final avalanche of cyrb53's two lanes into a 53-bit number. */
function finish(a: number, b: number): number {
  const h1 = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  const h2 = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** cyrb53: a fast non-cryptographic 53-bit hash of UTF-16 code units. */
function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  return finish(h1, h2);
}

/** The same mixing over 32-bit words (pixel buffers: no string is built). */
function cyrb53Words(words: ArrayLike<number>, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    h1 = Math.imul(h1 ^ w, 2654435761);
    h2 = Math.imul(h2 ^ w, 1597334677);
  }
  return finish(h1, h2);
}

const hex14 = (n: number) => n.toString(16).padStart(14, '0');

/** Two seeds give 28 hex characters. */
export function hashText(text: string): string {
  return hex14(cyrb53(text, 0)) + hex14(cyrb53(text, 1));
}

export function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Hash of every byte of a pixel buffer, read as 32-bit words when aligned (a 240×60 canvas is
 * 14,400 words; building a string of its 57,600 bytes first took several ms).
 */
export function hashBytes(bytes: Uint8Array | Uint8ClampedArray): string {
  const aligned = bytes.byteOffset % 4 === 0 && bytes.byteLength % 4 === 0;
  const words = aligned ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4) : bytes;
  return hex14(cyrb53Words(words, 0)) + hex14(cyrb53Words(words, 1));
}
