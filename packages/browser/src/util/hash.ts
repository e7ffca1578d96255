/** cyrb53: a fast non-cryptographic 53-bit hash; two seeds give 28 hex characters. */
function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export function hashText(text: string): string {
  return cyrb53(text, 0).toString(16).padStart(14, '0') + cyrb53(text, 1).toString(16).padStart(14, '0');
}

export function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Hash of bytes (every byte when short, a stride sample of long buffers). */
export function hashBytes(bytes: ArrayLike<number>): string {
  const stride = bytes.length > 65_536 ? 3 : 1;
  let text = '';
  for (let i = 0; i < bytes.length; i += stride) text += String.fromCharCode(bytes[i]!);
  return hashText(text);
}
