/**
 * A small SHA-256 in plain JavaScript: the reference for the WASM solver, the fallback when
 * WebAssembly is unavailable, and the tool that computes midstates (hash state after the
 * constant prefix) and partially computed rounds for both solvers.
 */
export const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

export const H0 = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

const W = new Int32Array(64);

/**
 * Runs rounds [from, to) of the compression on `state` (a..h, modified in place) with the
 * 16 message words at `words[offset..offset+16)`. Rounds >= 16 need to === 64 and from === 0
 * or a schedule already in W; callers use (0, j) for precomputation and (j, 64) to finish.
 */
export function rounds(state: Int32Array, words: Int32Array, offset: number, from: number, to: number): void {
  for (let t = 0; t < 16; t++) W[t] = words[offset + t]!;
  for (let t = 16; t < to; t++) {
    const w15 = W[t - 15]!;
    const w2 = W[t - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[t] = (W[t - 16]! + s0 + W[t - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let t = from; t < to; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t]! + W[t]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = a;
  state[1] = b;
  state[2] = c;
  state[3] = d;
  state[4] = e;
  state[5] = f;
  state[6] = g;
  state[7] = h;
}

/** One full compression: h += rounds(h, block). */
export function compress(h: Int32Array, words: Int32Array, offset: number): void {
  const s = h.slice();
  rounds(s, words, offset, 0, 64);
  for (let i = 0; i < 8; i++) h[i] = (h[i]! + s[i]!) | 0;
}

/** Big-endian words of `bytes` (length a multiple of 4). */
export function toWords(bytes: Uint8Array): Int32Array {
  const out = new Int32Array(bytes.length >> 2);
  for (let i = 0; i < out.length; i++) {
    const o = i * 4;
    out[i] = (bytes[o]! << 24) | (bytes[o + 1]! << 16) | (bytes[o + 2]! << 8) | bytes[o + 3]!;
  }
  return out;
}

/** Pads a whole message per FIPS 180-4. */
export function pad(message: Uint8Array): Uint8Array {
  const total = Math.ceil((message.length + 9) / 64) * 64;
  const out = new Uint8Array(total);
  out.set(message);
  out[message.length] = 0x80;
  const bits = message.length * 8;
  const view = new DataView(out.buffer);
  view.setUint32(total - 8, Math.floor(bits / 0x100000000));
  view.setUint32(total - 4, bits >>> 0);
  return out;
}

export function wordsToHex(words: ArrayLike<number>): string {
  let s = '';
  for (let i = 0; i < words.length; i++) s += (words[i]! >>> 0).toString(16).padStart(8, '0');
  return s;
}

export function hexToWords(hex: string): Int32Array {
  const out = new Int32Array(hex.length >> 3);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 8, i * 8 + 8), 16) | 0;
  return out;
}

/** SHA-256 of bytes as lowercase hex. */
export function sha256Hex(message: Uint8Array): string {
  const words = toWords(pad(message));
  const h = H0.slice();
  for (let o = 0; o < words.length; o += 16) compress(h, words, o);
  return wordsToHex(h);
}
