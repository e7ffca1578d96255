import { describe, expect, it } from 'vitest';
import {
  MAX_SIGNATURE_HEADER_LENGTH,
  parseWebhookSignatureHeader,
  webhookSignatureHeader,
  webhookSignatureHex,
} from './webhook-signature.ts';

// Reference value from outside Node:
//   printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac 'whsec_test' -hex
const REFERENCE = '38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789';

describe('webhook signature wire format', () => {
  it('is HMAC-SHA256 hex over `<t>.<raw body>` keyed by the secret text', () => {
    expect(webhookSignatureHex('whsec_test', 1700000000, '{"a":1}')).toBe(REFERENCE);
    expect(webhookSignatureHex('whsec_test', '1700000000', Buffer.from('{"a":1}'))).toBe(REFERENCE);
  });

  it('writes the header as t=<unix seconds>,v1=<hex>, seconds floored', () => {
    expect(webhookSignatureHeader('whsec_test', '{"a":1}', 1700000000_999)).toBe(
      `t=1700000000,v1=${REFERENCE}`,
    );
  });

  it('reads back what it writes, and every well-formed v1 entry', () => {
    expect(parseWebhookSignatureHeader(`t=1700000000,v1=${REFERENCE}`)).toEqual({
      timestamp: '1700000000',
      signatures: [REFERENCE],
    });
    const upper = REFERENCE.toUpperCase();
    expect(
      parseWebhookSignatureHeader(` t = 5 , v0=abc, v1=${'0'.repeat(64)}, v1=${upper}, v1=short, x`),
    ).toEqual({
      timestamp: '5',
      signatures: ['0'.repeat(64), REFERENCE],
    });
  });

  it('rejects a header without a valid t or v1, empty, or too long', () => {
    for (const header of [
      undefined,
      null,
      '',
      `v1=${REFERENCE}`,
      `t=abc,v1=${REFERENCE}`,
      `t=1234567890123,v1=${REFERENCE}`,
      't=1,v1=short',
      `t=1,v1=${REFERENCE},${' '.repeat(MAX_SIGNATURE_HEADER_LENGTH)}`,
    ]) {
      expect(parseWebhookSignatureHeader(header)).toBeNull();
    }
  });
});
