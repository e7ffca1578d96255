import { K } from './sha256.ts';

/**
 * Emits the bytes of a WebAssembly module with an unrolled SHA-256 compression and a search
 * loop that increments an ASCII decimal counter in place. Run at build time (the bytes are
 * embedded in the worker) and in tests. Memory layout, in bytes (words are native i32 values):
 */
export const MEM = {
  /** Hash state after the constant leading blocks (8 words). */
  mid: 0,
  /** State after `entry` rounds, rotated so that role r sits in slot (r - entry) mod 8. */
  pre: 32,
  /** One or two message blocks as big-endian word values (32 words). */
  tail: 64,
  /** Target digest (8 words). */
  target: 192,
  /** Digest of the last attempt (8 words). */
  out: 224,
} as const;

const I32 = 0x7f;
const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  brTable: 0x0e,
  return: 0x0f,
  call: 0x10,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  load: 0x28,
  load8u: 0x2d,
  store: 0x36,
  store8: 0x3a,
  const: 0x41,
  eq: 0x46,
  ne: 0x47,
  ltU: 0x49,
  geS: 0x4e,
  geU: 0x4f,
  add: 0x6a,
  sub: 0x6b,
  and: 0x71,
  or: 0x72,
  xor: 0x73,
  shrU: 0x76,
  rotr: 0x78,
} as const;

function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

function sleb(value: number): number[] {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

class Code {
  readonly bytes: number[] = [];
  op(...codes: number[]): this {
    this.bytes.push(...codes);
    return this;
  }
  get(i: number): this {
    return this.op(OP.get, ...uleb(i));
  }
  set(i: number): this {
    return this.op(OP.set, ...uleb(i));
  }
  tee(i: number): this {
    return this.op(OP.tee, ...uleb(i));
  }
  i32(v: number): this {
    return this.op(OP.const, ...sleb(v));
  }
  load(offset: number): this {
    return this.op(OP.load, 2, ...uleb(offset));
  }
  store(offset: number): this {
    return this.op(OP.store, 2, ...uleb(offset));
  }
  rotr(local: number, n: number): this {
    return this.get(local).i32(n).op(OP.rotr);
  }
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function name(s: string): number[] {
  return [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
}

/** compress(block, entry, pre, h, out): out[k] = h[k] + state after rounds entry..63 from pre. */
function compressBody(): number[] {
  const [BLOCK, ENTRY, PRE, H, OUT] = [0, 1, 2, 3, 4];
  const v = (k: number) => 5 + (k & 7);
  const w = (k: number) => 13 + (k & 15);
  const T1 = 29;
  const c = new Code();
  for (let k = 0; k < 8; k++)
    c.get(PRE)
      .load(k * 4)
      .set(v(k));
  for (let k = 0; k < 16; k++)
    c.get(BLOCK)
      .load(k * 4)
      .set(w(k));
  const round = (t: number) => {
    const role = (r: number) => v(r - t + 8);
    const [a, b, cc, d, e, f, g, h] = [0, 1, 2, 3, 4, 5, 6, 7].map(role) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    if (t >= 16) {
      // w[t] = σ1(w[t-2]) + w[t-7] + σ0(w[t-15]) + w[t-16]
      c.rotr(w(t - 2), 17)
        .rotr(w(t - 2), 19)
        .op(OP.xor)
        .get(w(t - 2))
        .i32(10)
        .op(OP.shrU, OP.xor);
      c.get(w(t - 7)).op(OP.add);
      c.rotr(w(t - 15), 7)
        .rotr(w(t - 15), 18)
        .op(OP.xor)
        .get(w(t - 15))
        .i32(3)
        .op(OP.shrU, OP.xor);
      c.op(OP.add).get(w(t)).op(OP.add).set(w(t));
    }
    c.get(h);
    c.rotr(e, 6).rotr(e, 11).op(OP.xor).rotr(e, 25).op(OP.xor, OP.add);
    c.get(f).get(g).op(OP.xor).get(e).op(OP.and).get(g).op(OP.xor, OP.add);
    c.i32(K[t]!).op(OP.add).get(w(t)).op(OP.add).set(T1);
    c.get(d).get(T1).op(OP.add).set(d);
    c.get(T1);
    c.rotr(a, 2).rotr(a, 13).op(OP.xor).rotr(a, 22).op(OP.xor, OP.add);
    c.get(a).get(b).op(OP.and).get(cc).get(a).get(b).op(OP.or, OP.and, OP.or, OP.add).set(h);
  };
  // Entry dispatch: br_table depth k leaves block k and lands on round k.
  for (let k = 0; k < 16; k++) c.op(OP.block, 0x40);
  c.get(ENTRY).op(OP.brTable, ...uleb(16));
  for (let k = 0; k < 16; k++) c.op(...uleb(k));
  c.op(0);
  for (let t = 0; t < 16; t++) {
    c.op(OP.end);
    round(t);
  }
  for (let t = 16; t < 64; t++) round(t);
  for (let k = 0; k < 8; k++)
    c.get(OUT)
      .get(H)
      .load(k * 4)
      .get(v(k))
      .op(OP.add)
      .store(k * 4);
  c.op(OP.end);
  return [...vec([[25, I32]]), ...c.bytes];
}

/**
 * search(count, entry, twoBlocks, digitStart, digitEnd) → index of the match in this slice, or -1.
 * Digits are bytes of the tail at message offsets [digitStart, digitEnd); the byte at message
 * offset i lives at address tail + (i ^ 3) because words are stored as native little-endian i32.
 */
function searchBody(): number[] {
  const [COUNT, ENTRY, TWO, DSTART, DEND] = [0, 1, 2, 3, 4];
  const [I, KK, ADDR, B] = [5, 6, 7, 8];
  const c = new Code();
  c.op(OP.loop, 0x40); // label 0 (outer loop)
  c.get(I).get(COUNT).op(OP.geU, OP.if, 0x40).i32(-1).op(OP.return, OP.end);
  c.i32(MEM.tail).get(ENTRY).i32(MEM.pre).i32(MEM.mid).i32(MEM.out).op(OP.call, 0);
  c.get(TWO).op(OP.if, 0x40);
  c.i32(MEM.tail + 64)
    .i32(0)
    .i32(MEM.out)
    .i32(MEM.out)
    .i32(MEM.out)
    .op(OP.call, 0);
  c.op(OP.end);
  // Compare: word 0 first, then the rest.
  c.i32(0).load(MEM.out).i32(0).load(MEM.target).op(OP.eq, OP.if, 0x40);
  c.op(OP.block, 0x40);
  for (let k = 1; k < 8; k++)
    c.i32(0)
      .load(MEM.out + k * 4)
      .i32(0)
      .load(MEM.target + k * 4)
      .op(OP.ne, OP.brIf, 0);
  c.get(I).op(OP.return);
  c.op(OP.end, OP.end);
  // Increment the ASCII decimal counter.
  c.get(DEND).i32(1).op(OP.sub).set(KK);
  c.op(OP.block, 0x40, OP.loop, 0x40);
  c.get(KK).get(DSTART).op(OP.ltU, OP.brIf, 1);
  c.get(KK).i32(3).op(OP.xor).i32(MEM.tail).op(OP.add).tee(ADDR).op(OP.load8u, 0, 0).tee(B);
  c.i32(0x39).op(OP.ltU, OP.if, 0x40);
  c.get(ADDR).get(B).i32(1).op(OP.add, OP.store8, 0, 0, OP.br, 2);
  c.op(OP.end);
  c.get(ADDR).i32(0x30).op(OP.store8, 0, 0);
  c.get(KK).i32(1).op(OP.sub).set(KK).op(OP.br, 0);
  c.op(OP.end, OP.end);
  c.get(I).i32(1).op(OP.add).set(I).op(OP.br, 0);
  c.op(OP.end);
  c.i32(-1).op(OP.end);
  return [...vec([[4, I32]]), ...c.bytes];
}

export function buildSha256Wasm(): Uint8Array {
  const params5 = [I32, I32, I32, I32, I32];
  const types = vec([
    [0x60, ...vec(params5.map((p) => [p])), 0],
    [0x60, ...vec(params5.map((p) => [p])), ...vec([[I32]])],
  ]);
  const bodies = [compressBody(), searchBody()].map((b) => [...uleb(b.length), ...b]);
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, types),
    ...section(3, vec([[0], [1]])),
    ...section(5, vec([[0x00, 1]])),
    ...section(
      7,
      vec([
        [...name('memory'), 0x02, 0],
        [...name('compress'), 0x00, 0],
        [...name('search'), 0x00, 1],
      ]),
    ),
    ...section(10, vec(bodies)),
  ];
  return new Uint8Array(bytes);
}
