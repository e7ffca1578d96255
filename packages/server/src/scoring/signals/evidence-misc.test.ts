import { describe, expect, it } from 'vitest';
import { isDisposableDomain } from '../email-domains.ts';
import { emailKey } from '../history-keys.ts';
import { baseFeatures } from '../test-fixtures.ts';
import { email } from './email.ts';
import { freshness } from './freshness.ts';
import { pow } from './pow.ts';
import { trust } from './trust.ts';

const DAY = 86_400_000;

describe('email', () => {
  it('knows disposable domains, their subdomains and self-describing names', () => {
    expect(isDisposableDomain('mailinator.com')).toBe(true);
    expect(isDisposableDomain('x.yopmail.com')).toBe(true);
    expect(isDisposableDomain('my-tempmail.net')).toBe(true);
    expect(isDisposableDomain('gmail.com')).toBe(false);
    expect(isDisposableDomain('example.org')).toBe(false);
  });
  it('normalises plus and Gmail dot aliases', () => {
    expect(emailKey('Jane.Doe+promo1@GoogleMail.com')).toBe('janedoe@gmail.com');
    expect(emailKey('jane.doe+x@example.com')).toBe('jane.doe@example.com');
    expect(emailKey('nope')).toBe('');
  });
  it('scores disposable mail, and plus aliases on signup', () => {
    const f = baseFeatures({
      email_disposable: true,
      email_domain: 'yopmail.com',
      email_plus_alias: true,
      event_type: 'signup',
    });
    expect(email.evaluate(f).map((s) => s.rule)).toEqual(['email_disposable', 'email_plus_alias']);
  });
});

describe('freshness', () => {
  it('accepts small clock differences and flags stale or replayed evidence', () => {
    expect(freshness.evaluate(baseFeatures({ clock_skew_ms: 60_000, nonce: 'fresh' }))).toEqual([]);
    expect(freshness.evaluate(baseFeatures({ clock_skew_ms: 10 * 60_000 }))[0]).toMatchObject({
      rule: 'evidence_stale',
      score: 15,
    });
    expect(freshness.evaluate(baseFeatures({ clock_skew_ms: 2 * DAY }))[0]?.score).toBe(30);
    expect(freshness.evaluate(baseFeatures({ nonce: 'replayed' }))[0]?.rule).toBe('nonce_replayed');
  });
});

describe('proof-of-work', () => {
  it('trusts a valid proof and penalises bad ones', () => {
    expect(pow.evaluate(baseFeatures({ pow: 'valid' }))).toEqual([
      expect.objectContaining({ rule: 'pow_verified', score: -20 }),
    ]);
    expect(pow.evaluate(baseFeatures({ pow: 'already_used' }))[0]?.rule).toBe('pow_replayed');
    expect(pow.evaluate(baseFeatures({ pow: 'expired' }))[0]?.rule).toBe('pow_invalid');
    expect(pow.evaluate(baseFeatures({ pow: 'absent' }))).toEqual([]);
  });
});

describe('device trust', () => {
  const now = 1_700_000_000_000;
  it('trusts a long-lived clean device', () => {
    const f = baseFeatures({ now_ms: now }, { device_first_seen: now - 10 * DAY, device_events_30d: 12 });
    expect(trust.evaluate(f)).toEqual([expect.objectContaining({ rule: 'device_trusted', score: -15 })]);
  });
  it('does not trust a new, a rarely seen, a risky or an absent device', () => {
    const old = now - 10 * DAY;
    expect(
      trust.evaluate(baseFeatures({ now_ms: now }, { device_first_seen: now - DAY, device_events_30d: 12 })),
    ).toEqual([]);
    expect(
      trust.evaluate(baseFeatures({ now_ms: now }, { device_first_seen: old, device_events_30d: 2 })),
    ).toEqual([]);
    expect(
      trust.evaluate(
        baseFeatures(
          { now_ms: now },
          { device_first_seen: old, device_events_30d: 12, device_risky_events_30d: 1 },
        ),
      ),
    ).toEqual([]);
    expect(
      trust.evaluate(
        baseFeatures({ now_ms: now, device_id: '' }, { device_first_seen: old, device_events_30d: 12 }),
      ),
    ).toEqual([]);
  });
});
