import { compress, H0, hexToWords, rounds, toWords } from './sha256.ts';

/**
 * A search over n in [first, last] where every n has the same number of decimal digits, so the
 * message salt + n has a fixed length. Everything that does not depend on n is computed once:
 * the midstate after the whole 64-byte blocks before the first digit, and the rounds of the
 * first tail block whose message words hold only salt bytes.
 */
export interface SearchPlan {
  first: number;
  last: number;
  /** Hash state after the constant leading blocks. */
  midstate: Int32Array;
  /** State after `entry` rounds of the first tail block (a..h). */
  pre: Int32Array;
  /** Rounds already done in `pre` (0..15). */
  entry: number;
  /** The tail (1 or 2 blocks) as big-endian words, holding the digits of `first`. */
  tail: Int32Array;
  /** Offset of the first digit inside the tail, and the digit count. */
  digitOffset: number;
  digits: number;
  /** The target digest as 8 words. */
  target: Int32Array;
}

const encoder = new TextEncoder();

/** Splits [start, end] into ranges of equal digit count. */
export function digitRanges(start: number, end: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let lo = start;
  while (lo <= end) {
    const digits = String(lo).length;
    const hi = Math.min(end, 10 ** digits - 1);
    out.push([lo, hi]);
    lo = hi + 1;
  }
  return out;
}

export function makePlan(salt: string, challengeHex: string, first: number, last: number): SearchPlan {
  const prefix = encoder.encode(salt);
  const text = String(first);
  const digits = text.length;
  const constBlocks = Math.floor(prefix.length / 64);
  const midstate = H0.slice();
  const prefixWords = toWords(prefix.subarray(0, constBlocks * 64));
  for (let o = 0; o < prefixWords.length; o += 16) compress(midstate, prefixWords, o);

  const rest = prefix.subarray(constBlocks * 64);
  const total = prefix.length + digits;
  const tailLen = rest.length + digits + 9 <= 64 ? 64 : 128;
  const bytes = new Uint8Array(tailLen);
  bytes.set(rest);
  for (let i = 0; i < digits; i++) bytes[rest.length + i] = text.charCodeAt(i);
  bytes[rest.length + digits] = 0x80;
  const bits = total * 8;
  const view = new DataView(bytes.buffer);
  view.setUint32(tailLen - 8, Math.floor(bits / 0x100000000));
  view.setUint32(tailLen - 4, bits >>> 0);
  const tail = toWords(bytes);
  const entry = rest.length >> 2;
  const pre = midstate.slice();
  rounds(pre, tail, 0, 0, entry);
  return {
    first,
    last,
    midstate,
    pre,
    entry,
    tail,
    digitOffset: rest.length,
    digits,
    target: hexToWords(challengeHex.toLowerCase()),
  };
}

/** Adds one to the ASCII decimal number held in big-endian words (no overflow past the first digit). */
export function incrementDigits(words: Int32Array, digitOffset: number, digits: number): void {
  for (let i = digitOffset + digits - 1; i >= digitOffset; i--) {
    const shift = 24 - ((i & 3) << 3);
    const w = i >> 2;
    const byte = (words[w]! >>> shift) & 0xff;
    if (byte < 0x39) {
      words[w] = (words[w]! + (1 << shift)) | 0;
      return;
    }
    words[w] = (words[w]! - (9 << shift)) | 0;
  }
}
