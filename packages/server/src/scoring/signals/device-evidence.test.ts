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
  it('flags a visitor id that names another device than the fingerprint', () => {
    expect(rules({ device_visitor_conflict: true })).toEqual(['device_visitor_conflict']);
    expect(rules({ device_visitor_conflict: false, device_link: 'visitor' })).toEqual([]);
  });
});

describe('evidence the SDK would have sent', () => {
  it('flags a browser call with a browser UA and no evidence at all (a script, not the SDK)', () => {
    const bare = {
      surface: 'browser' as const,
      token: 'absent' as const,
      has_fingerprint: false,
      has_environment: false,
      has_behavior: false,
    };
    const s = deviceEvidence.evaluate(baseFeatures(bare));
    expect(s.map((x) => x.rule)).toEqual(['no_device_evidence', 'sdk_evidence_missing']);
    expect(s.reduce((n, x) => n + x.score, 0)).toBeGreaterThanOrEqual(60);
    // Any SDK evidence (even behaviour alone) or a non-browser UA: only no_device_evidence.
    expect(rules({ ...bare, has_behavior: true })).toEqual(['no_device_evidence']);
    expect(rules({ ...bare, ua_browser: false })).toEqual(['no_device_evidence']);
  });
  it('flags a tokenless form event on the backend only when the site sends tokens with that event type', () => {
    const tokenless = { token: 'absent' as const, has_fingerprint: false };
    const sdkForms = { site_uses_sdk: true, event_type_uses_sdk: true };
    expect(rules(tokenless)).toEqual(['no_device_evidence']);
    const sdkSite = baseFeatures(tokenless, sdkForms);
    expect(deviceEvidence.evaluate(sdkSite).map((x) => x.rule)).toEqual([
      'no_device_evidence',
      'token_missing',
    ]);
    // The site sends tokens with other forms only (its sign-up runs the ALTCHA widget alone).
    const otherForms = baseFeatures(tokenless, { site_uses_sdk: true, event_type_uses_sdk: false });
    expect(deviceEvidence.evaluate(otherForms).map((x) => x.rule)).toEqual(['no_device_evidence']);
    const pageView = baseFeatures({ ...tokenless, event_type: 'page_view' }, sdkForms);
    expect(deviceEvidence.evaluate(pageView).map((x) => x.rule)).toEqual(['no_device_evidence']);
  });
  it('adds hosting_without_browser when a tokenless backend call comes from a hosting network', () => {
    const tokenless = { token: 'absent' as const, has_fingerprint: false, event_type: 'page_view' as const };
    const hosted = { ...tokenless, ip: { ...baseFeatures().ip, hosting: true } };
    expect(deviceEvidence.evaluate(baseFeatures(hosted)).map((x) => x.rule)).toEqual(['no_device_evidence']);
    const s = deviceEvidence.evaluate(baseFeatures(hosted, { site_uses_sdk: true }));
    expect(s.map((x) => x.rule)).toEqual(['no_device_evidence', 'hosting_without_browser']);
    // A scraping page view from a hosting network reaches `high` (challenge) with datacenter_ip (+20).
    expect(s.reduce((n, x) => n + x.score, 0) + 20).toBeGreaterThanOrEqual(60);
  });
  it('makes a tokenless form post on an SDK site worth a challenge on its own', () => {
    const s = deviceEvidence.evaluate(
      baseFeatures(
        { token: 'absent', has_fingerprint: false },
        { site_uses_sdk: true, event_type_uses_sdk: true },
      ),
    );
    expect(s.reduce((n, x) => n + x.score, 0)).toBe(60);
  });
});
