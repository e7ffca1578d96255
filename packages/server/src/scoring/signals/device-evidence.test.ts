import { describe, expect, it } from 'vitest';
import { baseFeatures } from '../test-fixtures.ts';
import { deviceEvidence } from './device-evidence.ts';

const rules = (o: Parameters<typeof baseFeatures>[0]) =>
  deviceEvidence.evaluate(baseFeatures(o)).map((s) => s.rule);

describe('device evidence', () => {
  it('adds nothing for a valid token of the site', () => {
    expect(rules({ token: 'valid' })).toEqual([]);
  });
  it('names each bad token', () => {
    expect(rules({ token: 'invalid' })).toEqual(['token_invalid']);
    expect(rules({ token: 'expired' })).toEqual(['token_expired']);
    expect(rules({ token: 'site_mismatch' })).toEqual(['token_site_mismatch']);
  });
  it('flags missing evidence only when there is neither token nor fingerprint', () => {
    expect(rules({ token: 'absent', has_fingerprint: false })).toEqual(['no_device_evidence']);
    expect(rules({ token: 'absent', has_fingerprint: true })).toEqual([]);
  });
  it('flags a token replayed from another device', () => {
    expect(rules({ token_device_mismatch: true })).toEqual(['token_device_mismatch']);
  });
});
