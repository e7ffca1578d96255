// The idempotency body hash (SPEC §3: bodies compared after parsing, in canonical form), from the
// parsed body without writing JSON: a SHA-256 over an unambiguous binary form of the value, with
// object keys sorted. Two bodies get the same digest exactly when they are equal after parsing
// (numbers compared as numbers: 1, 1.0 and 1e0 are equal, and so are 0 and -0, as in canonical
// JSON text). Writing numbers as their 8 bytes instead of as decimal text is what makes it cheap:
// most of an evidence body is numbers (behaviour samples).
import { createHash } from 'node:crypto';

/** Digests of this form start with this; the older form (canonicalBodyHash) is bare hex. */
export const DIGEST_PREFIX = 'b1:';

const NULL = 0;
const FALSE = 1;
const TRUE = 2;
const NUMBER = 3;
const STRING = 4;
const ARRAY = 5;
const OBJECT = 6;
const BUFFER_SIZE = 2048;
/** Strings up to this many code units are copied in JavaScript (Writer.string). */
const SHORT_STRING = 24;

/** Writes the binary form into a small buffer, handed to the hash whenever it is full. */
class Writer {
  constructor() {
    this.hash = createHash('sha256');
    this.buf = Buffer.allocUnsafe(BUFFER_SIZE);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    this.at = 0;
  }

  room(n) {
    if (this.at + n <= BUFFER_SIZE) return;
    this.hash.update(this.buf.subarray(0, this.at));
    this.at = 0;
  }

  digest() {
    this.hash.update(this.buf.subarray(0, this.at));
    return this.hash.digest('hex');
  }

  tag(t) {
    this.room(1);
    this.buf[this.at++] = t;
  }

  /** A tag and a uint32: a length or a count. */
  tagged(t, n) {
    this.room(5);
    this.buf[this.at] = t;
    this.view.setUint32(this.at + 1, n, true);
    this.at += 5;
  }

  number(v) {
    this.room(9);
    this.buf[this.at] = NUMBER;
    // -0 is 0 (canonical JSON writes both as 0); NaN and ±Infinity are null, as JSON writes them.
    this.view.setFloat64(this.at + 1, v === 0 ? 0 : v, true);
    this.at += 9;
  }

  /**
   * UTF-16 code units (little-endian), so that every string (lone surrogates too) has its own
   * bytes. Short strings (keys, most values) are copied unit by unit: Buffer.write is a call into
   * C++ that costs more than the copy itself at these lengths. Same bytes either way.
   */
  string(s) {
    const n = s.length;
    this.tagged(STRING, n);
    if (n * 2 > BUFFER_SIZE) {
      this.room(BUFFER_SIZE);
      this.hash.update(s, 'utf16le');
      return;
    }
    this.room(n * 2);
    if (n > SHORT_STRING) {
      this.at += this.buf.write(s, this.at, 'utf16le');
      return;
    }
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < n; i++) {
      const unit = s.charCodeAt(i);
      buf[at++] = unit & 255;
      buf[at++] = unit >> 8;
    }
    this.at = at;
  }
}

function write(w, value) {
  switch (typeof value) {
    case 'number':
      if (Number.isFinite(value)) w.number(value);
      else w.tag(NULL);
      return;
    case 'string':
      w.string(value);
      return;
    case 'boolean':
      w.tag(value ? TRUE : FALSE);
      return;
    case 'object':
      break;
    default:
      // undefined, functions, symbols: as JSON.stringify writes them in an array (null).
      w.tag(NULL);
      return;
  }
  if (value === null) {
    w.tag(NULL);
  } else if (Array.isArray(value)) {
    w.tagged(ARRAY, value.length);
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (typeof item === 'number' && Number.isFinite(item)) w.number(item);
      else write(w, item);
    }
  } else {
    // Members whose value is undefined are left out, as JSON.stringify leaves them out.
    const keys = Object.keys(value).filter((k) => value[k] !== undefined);
    keys.sort();
    w.tagged(OBJECT, keys.length);
    for (const key of keys) {
      w.string(key);
      write(w, value[key]);
    }
  }
}

/** `b1:` + SHA-256 (hex) of the parsed body's binary form. */
export function bodyDigest(body) {
  const w = new Writer();
  write(w, body);
  return DIGEST_PREFIX + w.digest();
}
