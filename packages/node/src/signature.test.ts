import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhookPayload, verifyWebhookSignature } from './signature.ts';

const secret = 'whsec_test_secret';
const body = '{"id":"x","type":"decision.created"}';
const now = 1_750_000_000_000;
const t = Math.floor(now / 1000);
const sig = (s: string, ts: number, b: string) => createHmac('sha256', s).update(`${ts}.${b}`).digest('hex');

describe('verifyWebhookSignature', () => {
  it('accepts a valid signature over the raw bytes (string or Buffer)', () => {
    const header = `t=${t},v1=${sig(secret, t, body)}`;
    expect(verifyWebhookSignature(body, header, secret, { now })).toEqual({ valid: true, timestamp: t });
    expect(verifyWebhookSignature(Buffer.from(body), header, secret, { now }).valid).toBe(true);
    expect(signWebhookPayload(body, secret, now)).toBe(header);
  });

  it('refuses a setup that would accept forgeries: empty secret, bad tolerance', () => {
    const header = signWebhookPayload(body, '', now);
    expect(() => verifyWebhookSignature(body, header, '', { now })).toThrow(TypeError);
    expect(() => verifyWebhookSignature(body, header, [], { now })).toThrow(TypeError);
    for (const toleranceSeconds of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      expect(() => verifyWebhookSignature(body, header, secret, { now, toleranceSeconds })).toThrow(
        TypeError,
      );
    }
  });

  it('rejects any change of the body, even whitespace', () => {
    const header = signWebhookPayload(body, secret, now);
    expect(verifyWebhookSignature(`${body} `, header, secret, { now })).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
    expect(
      verifyWebhookSignature(JSON.stringify(JSON.parse(body), null, 1), header, secret, { now }).valid,
    ).toBe(false);
  });

  it('uses the secret as UTF-8 text, not decoded', () => {
    const hexLooking = 'deadbeef';
    const header = `t=${t},v1=${createHmac('sha256', Buffer.from(hexLooking, 'hex')).update(`${t}.${body}`).digest('hex')}`;
    expect(verifyWebhookSignature(body, header, hexLooking, { now }).valid).toBe(false);
  });

  it('rejects timestamps too old or too far in the future (5 minutes by default)', () => {
    for (const skew of [-301, 301]) {
      const ts = t + skew;
      const header = `t=${ts},v1=${sig(secret, ts, body)}`;
      expect(verifyWebhookSignature(body, header, secret, { now })).toEqual({
        valid: false,
        reason: 'timestamp_out_of_tolerance',
      });
    }
    const edge = `t=${t - 300},v1=${sig(secret, t - 300, body)}`;
    expect(verifyWebhookSignature(body, edge, secret, { now }).valid).toBe(true);
    const old = `t=${t - 3600},v1=${sig(secret, t - 3600, body)}`;
    expect(verifyWebhookSignature(body, old, secret, { now, toleranceSeconds: 7200 }).valid).toBe(true);
  });

  it('accepts any of several v1 entries and several secrets; ignores unknown schemes', () => {
    const good = sig(secret, t, body);
    const header = `t=${t},v0=abc,v1=${'0'.repeat(64)},v1=${good}`;
    expect(verifyWebhookSignature(body, header, secret, { now }).valid).toBe(true);
    expect(verifyWebhookSignature(body, `t=${t},v1=${good}`, ['whsec_old', secret], { now }).valid).toBe(
      true,
    );
  });

  it('rejects malformed headers', () => {
    for (const header of [
      undefined,
      '',
      'garbage',
      `t=${t}`,
      `v1=${sig(secret, t, body)}`,
      `t=abc,v1=${'a'.repeat(64)}`,
      `t=${t},v1=short`,
    ]) {
      expect(verifyWebhookSignature(body, header, secret, { now })).toEqual({
        valid: false,
        reason: 'malformed_header',
      });
    }
  });
});
