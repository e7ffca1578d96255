import { describe, expect, it } from 'vitest';
import { baseFeatures } from '../test-fixtures.ts';
import { fanout } from './fanout.ts';
import { logins } from './logins.ts';
import { payments } from './payments.ts';
import { velocity } from './velocity.ts';

describe('velocity', () => {
  it('is silent at normal rates', () => {
    expect(velocity.evaluate(baseFeatures({}, { ip_1m: 5, account_1h: 20 }))).toEqual([]);
  });
  it('scores tiers per IP, account and device', () => {
    const s = velocity.evaluate(baseFeatures({}, { ip_1m: 25, account_1m: 40, device_1h: 2000 }));
    expect(s.map((x) => [x.rule, x.score])).toEqual([
      ['velocity_ip_1m', 20],
      ['velocity_account_1m', 30],
      ['velocity_device_1h', 30],
    ]);
    expect(s[0]?.description).toContain('25');
  });
});

describe('failed logins', () => {
  it('counts only on login events', () => {
    const h = { failed_logins_account_1h: 6, failed_logins_ip_1h: 60 };
    expect(logins.evaluate(baseFeatures({ event_type: 'checkout' }, h))).toEqual([]);
    expect(logins.evaluate(baseFeatures({}, h)).map((x) => [x.rule, x.score])).toEqual([
      ['failed_logins_account', 25],
      ['failed_logins_ip', 40],
    ]);
  });
});

describe('fan-out', () => {
  it('flags many accounts per device and promo abuse', () => {
    expect(fanout.evaluate(baseFeatures({}, { accounts_per_device_24h: 2 }))).toEqual([]);
    expect(
      fanout
        .evaluate(baseFeatures({ event_type: 'promo_claim' }, { accounts_per_device_24h: 2 }))
        .map((x) => x.rule),
    ).toEqual(['promo_multi_account']);
    expect(fanout.evaluate(baseFeatures({}, { accounts_per_device_24h: 7 }))[0]).toMatchObject({
      rule: 'accounts_per_device',
      score: 40,
    });
  });
  it('is lenient on shared IPs and flags mailbox aliases', () => {
    expect(fanout.evaluate(baseFeatures({}, { accounts_per_ip_24h: 5 }))).toEqual([]);
    expect(
      fanout
        .evaluate(baseFeatures({}, { accounts_per_ip_24h: 30, accounts_per_email_24h: 3 }))
        .map((x) => x.rule),
    ).toEqual(['accounts_per_ip', 'accounts_per_email']);
  });
});

describe('card testing', () => {
  it('flags many payment hashes per account and device on payment events', () => {
    const h = { payments_per_account_24h: 6, payments_per_device_24h: 4 };
    expect(payments.evaluate(baseFeatures({ event_type: 'login' }, h))).toEqual([]);
    expect(
      payments
        .evaluate(baseFeatures({ event_type: 'checkout', has_payment: true }, h))
        .map((x) => [x.rule, x.score]),
    ).toEqual([
      ['payments_per_account', 45],
      ['payments_per_device', 30],
    ]);
  });
});
