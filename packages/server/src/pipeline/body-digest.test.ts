import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyDigest, DIGEST_PREFIX } from './body-digest.mjs';
import { canonicalJson } from './canonical-json.mjs';

/** The same value with every object's keys in another order (and parsed again from text). */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse()) {
    Object.defineProperty(out, key, {
      value: reordered((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

describe('bodyDigest', () => {
  it('keeps the byte form of recorded keys: a fixed body has a fixed digest', () => {
    // Short and long strings (copied in JavaScript or by Buffer.write), non-ASCII and a lone
    // surrogate, -0, nested arrays of numbers: a change here would make every recorded key conflict.
    const body = JSON.parse(
      '{"a":1,"b":[1.5,{"y":-0,"x":"é"}],"c":null,"s":"\\ud800 lone, and a longer string past twenty-four units","e":"","k":"\\u4e2d\\u6587"}',
    );
    expect(bodyDigest(body)).toBe('b1:1729b8f40a7327d4415d829ea5670f94506dfa87ee550e597cb2a6c1aa061312');
  });

  it('is the same for bodies equal after parsing: key order, whitespace, number spelling', () => {
    const a = JSON.parse('{"a":1,"b":[1.5,{"y":-0,"x":"é"}],"c":null}');
    const b = JSON.parse('{ "c": null, "b": [ 15e-1, { "x": "\\u00e9", "y": 0.0 } ], "a": 1.0 }');
    expect(bodyDigest(a)).toBe(bodyDigest(b));
    expect(bodyDigest(a).startsWith(DIGEST_PREFIX)).toBe(true);
    expect(bodyDigest({ a: 1 })).not.toBe(bodyDigest({ a: 2 }));
    expect(bodyDigest({ a: [1, 2] })).not.toBe(bodyDigest({ a: [2, 1] }));
    expect(bodyDigest({ a: '1' })).not.toBe(bodyDigest({ a: 1 }));
    expect(bodyDigest({ a: [] })).not.toBe(bodyDigest({ a: {} }));
    expect(bodyDigest({ ab: 'c' })).not.toBe(bodyDigest({ a: 'bc' }));
    // Strings longer than the writer's buffer go to the hash directly.
    const long = 'x'.repeat(5000);
    expect(bodyDigest({ a: long, b: [1, 2] })).toBe(bodyDigest({ b: [1, 2], a: `${long}` }));
    expect(bodyDigest({ a: long })).not.toBe(bodyDigest({ a: `${long.slice(1)}y` }));
    expect(bodyDigest([long, 'a'])).not.toBe(bodyDigest([`${long}a`]));
    // Lone surrogates are different strings (UTF-8 would make both U+FFFD).
    expect(bodyDigest(JSON.parse('"\\ud800"'))).not.toBe(bodyDigest(JSON.parse('"\\ud801"')));
  });

  it('equal digests ⇔ equal canonical JSON, for generated JSON values and their reorderings', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const same = canonicalJson(a) === canonicalJson(b);
        expect(bodyDigest(a) === bodyDigest(b)).toBe(same);
        expect(bodyDigest(reordered(a))).toBe(bodyDigest(a));
        expect(bodyDigest(JSON.parse(JSON.stringify(a)))).toBe(bodyDigest(a));
      }),
      { numRuns: 2000 },
    );
  });

  it('tells apart generated values that differ in one place', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), fc.jsonValue(), (obj, key, v) => {
        const changed = { ...obj, [key]: v };
        const same = canonicalJson(obj) === canonicalJson(changed);
        expect(bodyDigest(obj) === bodyDigest(changed)).toBe(same);
      }),
      { numRuns: 2000 },
    );
  });
});
