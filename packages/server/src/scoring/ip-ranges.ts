import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
/**
 * Address-range tables from the `@ip-location-db` CSV files (`start,end,value…` with numeric
 * addresses), kept in typed arrays, and the lookup helpers shared by the ASN and country tables.
 */
export interface RangeTable<T extends Uint32Array | BigUint64Array> {
  starts: T;
  ends: T;
  /** One number per range (an ASN, or a country code packed by packCountry). */
  values: Uint32Array;
}

/**
 * A typed array of a known most rows: allocated once at its final size (growing by doubling left
 * the C heap fragmented by the discarded copies: ~13 MB of resident memory that stayed).
 */
class Column<T extends Uint32Array | BigUint64Array> {
  length = 0;
  constructor(private readonly data: T) {}
  push(value: T extends BigUint64Array ? bigint : number): void {
    // Full only when the file grew since its lines were counted: the rows past the count wait
    // for the next load.
    if (this.length === this.data.length) return;
    (this.data as unknown as Array<typeof value>)[this.length++] = value;
  }
  /** The rows pushed (a view: the few skipped lines' slots are not worth a copy). */
  done(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

/**
 * Read `file` through one 1 MiB buffer, reused: a stream's new buffer per chunk is freed only when
 * the garbage collector gets to it, and the C heap those buffers came from kept ~30 MB of resident
 * memory after the load. A missing file reads as empty (false).
 */
async function eachChunk(file: string, onChunk: (bytes: Buffer) => void): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return true;
      onChunk(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}

/** Lines in a file (newlines, plus one for a last line without): 0 when it is missing. */
export async function countLines(file: string): Promise<number> {
  let lines = 1;
  const found = await eachChunk(file, (bytes) => {
    for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++;
  });
  return found ? lines : 0;
}

/**
 * Parse the `start,end,rest` lines of a CSV file, read in 1 MiB chunks so no whole file is ever one
 * string in memory; read twice, first to count the lines, so that each column is allocated once.
 * `value(rest)` turns the rest of the line into the range's number (0 or less: the line is
 * skipped). IPv6 (`big`) keeps the upper 64 bits: allocations are /48 or larger. A missing file
 * gives an empty table.
 */
export async function readRanges<T extends Uint32Array | BigUint64Array>(
  file: string,
  big: T extends BigUint64Array ? true : false,
  value: (rest: string) => number,
): Promise<RangeTable<T>> {
  const rows = await countLines(file);
  const make = () => (big ? new BigUint64Array(rows) : new Uint32Array(rows)) as T;
  const starts = new Column(make());
  const ends = new Column(make());
  const values = new Column(new Uint32Array(rows));
  const SHIFT = 64n;
  const line = (text: string, pos: number, nl: number) => {
    const c1 = text.indexOf(',', pos);
    const c2 = c1 < 0 ? -1 : text.indexOf(',', c1 + 1);
    if (c2 < 0 || c2 >= nl) return;
    const v = value(text.slice(c2 + 1, nl).trim());
    if (v <= 0) return;
    const start = text.slice(pos, c1);
    const end = text.slice(c1 + 1, c2);
    if (big) {
      (starts as Column<BigUint64Array>).push(BigInt(start) >> SHIFT);
      (ends as Column<BigUint64Array>).push(BigInt(end) >> SHIFT);
    } else {
      (starts as Column<Uint32Array>).push(Number(start));
      (ends as Column<Uint32Array>).push(Number(end));
    }
    values.push(v);
  };
  let carry = '';
  const decoder = new StringDecoder('utf8');
  await eachChunk(file, (bytes) => {
    const text = carry + decoder.write(bytes);
    let pos = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', pos)) {
      line(text, pos, nl);
      pos = nl + 1;
    }
    carry = text.slice(pos);
  });
  carry += decoder.end();
  if (carry !== '') line(carry, 0, carry.length);
  return { starts: starts.done(), ends: ends.done(), values: values.done() };
}

/** Two-letter country code as a number (0 for anything else). */
export function packCountry(code: string): number {
  return /^[A-Z]{2}$/.test(code) ? (code.charCodeAt(0) << 8) | code.charCodeAt(1) : 0;
}

export function unpackCountry(n: number): string {
  return String.fromCharCode(n >> 8, n & 0xff);
}

/** Index of the range holding `value`, or −1. */
export function findRange<T extends number | bigint>(
  starts: ArrayLike<T>,
  ends: ArrayLike<T>,
  value: T,
): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= value) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi >= 0 && value <= ends[hi]! ? hi : -1;
}

export function v4number(ip: string): number {
  let n = 0;
  for (const part of ip.split('.')) n = n * 256 + Number(part);
  return n;
}

/** The upper 64 bits of an IPv6 address, or null. */
export function v6upper(ip: string): bigint | null {
  const zone = ip.indexOf('%');
  const a = zone >= 0 ? ip.slice(0, zone) : ip;
  const [head = '', tail] = a.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  let n = 0n;
  for (let i = 0; i < 4; i++) {
    const g = Number.parseInt(groups[i] ?? '0', 16);
    if (!Number.isFinite(g)) return null;
    n = (n << 16n) | BigInt(g);
  }
  return n;
}
