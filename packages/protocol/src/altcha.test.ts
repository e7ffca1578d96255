import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  altchaV1Challenge,
  altchaV1Signature,
  altchaV2Password,
  altchaV2Signature,
  asAltchaV1Payload,
  asAltchaV2Envelope,
  canonicalJson,
  parseAltchaPayload,
} from './altcha.ts';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('the ALTCHA payload wire format', () => {
  it('decodes base64 JSON up to the given length only', () => {
    expect(parseAltchaPayload(b64({ a: 1 }), 100)).toEqual({ a: 1 });
    expect(parseAltchaPayload(b64({ a: 1 }), 4)).toBeUndefined();
    expect(parseAltchaPayload('', 100)).toBeUndefined();
    expect(parseAltchaPayload(42, 100)).toBeUndefined();
    expect(parseAltchaPayload('bm90IGpzb24=', 100)).toBeUndefined();
  });

  it('v1: the fields typed, the challenge SHA-256(salt ‖ n), the signature HMAC-SHA256 of the challenge', () => {
    const v1 = { algorithm: 'SHA-256', challenge: 'ab', number: 7, salt: 's?expires=1', signature: 'cd' };
    expect(asAltchaV1Payload(v1)).toBe(v1);
    expect(asAltchaV1Payload({ ...v1, number: -1 })).toBeUndefined();
    expect(asAltchaV1Payload({ ...v1, number: 1.5 })).toBeUndefined();
    expect(asAltchaV1Payload({ ...v1, signature: undefined })).toBeUndefined();
    expect(altchaV1Challenge('salt', 12)).toBe(createHash('sha256').update('salt12').digest('hex'));
    expect(altchaV1Signature('key', 'abc')).toBe(createHmac('sha256', 'key').update('abc').digest('hex'));
  });

  it('v2: the envelope, the counter a uint32, the signature over sorted keys without undefined', () => {
    const value = {
      challenge: { parameters: { b: 1, a: 2 }, signature: 'ff' },
      solution: { counter: 3, derivedKey: 'aa' },
    };
    expect(asAltchaV2Envelope(value)).toEqual({
      parameters: { b: 1, a: 2 },
      signature: 'ff',
      counter: 3,
      derivedKey: 'aa',
    });
    expect(
      asAltchaV2Envelope({ ...value, solution: { counter: 2 ** 32, derivedKey: 'aa' } }),
    ).toBeUndefined();
    expect(asAltchaV2Envelope({ ...value, challenge: { parameters: [], signature: 'ff' } })).toBeUndefined();
    expect(canonicalJson({ b: { d: 1, c: undefined }, a: [2, 1] })).toBe('{"a":[2,1],"b":{"d":1}}');
    expect(altchaV2Signature('k', { b: 1, a: 2 })).toBe(
      createHmac('sha256', 'k').update('{"a":2,"b":1}').digest('hex'),
    );
    expect(altchaV2Password('0a0b', 258).toString('hex')).toBe('0a0b00000102');
  });
});
