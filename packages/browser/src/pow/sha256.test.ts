import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digitRanges, makePlan } from './plan.ts';
import { JsSearcher, type Searcher } from './searcher.ts';
import { sha256Hex } from './sha256.ts';
import { searchRange } from './solve-sync.ts';
import { buildSha256Wasm } from './wasm-gen.ts';
import { WasmSearcher } from './wasm-searcher.ts';

const nodeHex = (s: string) => createHash('sha256').update(s).digest('hex');
const enc = new TextEncoder();

describe('pure-JS SHA-256', () => {
  it('matches node:crypto for every length 0..200', () => {
    for (let len = 0; len <= 200; len++) {
      const s = randomBytes(len).toString('base64').slice(0, len);
      expect(sha256Hex(enc.encode(s))).toBe(nodeHex(s));
    }
  });
});

describe('digitRanges', () => {
  it('splits by decimal length', () => {
    expect(digitRanges(0, 1234)).toEqual([
      [0, 9],
      [10, 99],
      [100, 999],
      [1000, 1234],
    ]);
    expect(digitRanges(95, 105)).toEqual([
      [95, 99],
      [100, 105],
    ]);
  });
});

const makers: Array<[string, () => Searcher]> = [
  ['js', () => new JsSearcher()],
  ['wasm', () => WasmSearcher.createSync(buildSha256Wasm())],
];

describe.each(makers)('%s searcher', (_kind, make) => {
  // Salt lengths cover every entry round (0..15), one- and two-block tails and midstates.
  const saltLengths = [0, 1, 3, 4, 7, 24, 43, 50, 55, 56, 60, 63, 64, 65, 100, 119, 127, 128, 140];
  it.each(saltLengths)('finds n for a %i-character salt, like node:crypto', (len) => {
    const salt = randomBytes(80).toString('hex').slice(0, len);
    for (const n of [0, 7, 9, 10, 99, 100, 4321, 65_536, 123_456]) {
      const target = nodeHex(salt + n);
      const start = Math.max(0, n - 300);
      const found = searchRange(make(), salt, target, start, n + 300, 97);
      expect(found).toBe(n);
    }
  });

  it('reports -1 when the range holds no solution and counts every value tried', () => {
    const salt = 'abc?expires=1700000000';
    let tried = 0;
    const found = searchRange(make(), salt, nodeHex(`${salt}5000`), 0, 4999, 256, (t) => {
      tried += t;
      return true;
    });
    expect(found).toBe(-1);
    expect(tried).toBe(5000);
  });

  it('agrees with the plain digest on the plan (midstate + skipped rounds)', () => {
    const salt = 'x'.repeat(70);
    const plan = makePlan(salt, nodeHex(`${salt}12345`), 12_340, 12_349);
    expect(plan.entry).toBe(1);
    expect(plan.midstate.length).toBe(8);
    const s = make();
    s.reset(plan);
    expect(s.step(100)).toBe(12_345);
  });
});
