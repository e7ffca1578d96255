import { describe, expect, it } from 'vitest';
import { baseFeatures } from '../test-fixtures.ts';
import { fanout } from './fanout.ts';
import { identity } from './identity.ts';
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

describe('card testing run and scripted checkouts', () => {
  const checkout = { event_type: 'checkout' as const, has_payment: true };
  it('names the run when several cards and several small payments meet on one account or device', () => {
    const run = { payments_per_account_24h: 3, small_payments_account_24h: 3 };
    const rules = payments.evaluate(baseFeatures(checkout, run)).map((x) => x.rule);
    expect(rules).toEqual(['payments_per_account', 'small_amount_run', 'card_testing_run']);
    // Three cards at normal prices is not a run of small payments.
    const big = payments.evaluate(baseFeatures(checkout, { payments_per_account_24h: 3 }));
    expect(big.map((x) => x.rule)).toEqual(['payments_per_account']);
  });
  it('adds scripted_payment to a browser checkout driven by a script, not to a person', () => {
    const noTouch = { present: true, touches: 0, interactions: 0 };
    const scripted = baseFeatures({
      ...checkout,
      surface: 'browser',
      behavior: { ...baseFeatures().behavior, ...noTouch },
    });
    expect(payments.evaluate(scripted).map((x) => x.rule)).toEqual(['scripted_payment']);
    const person = baseFeatures({
      ...checkout,
      surface: 'browser',
      behavior: { ...baseFeatures().behavior, present: true, interactions: 40, mouse_moves: 60, clicks: 3 },
    });
    expect(payments.evaluate(person)).toEqual([]);
    // Not a checkout: nothing, however it was driven.
    expect(payments.evaluate({ ...scripted, event_type: 'login', has_payment: false })).toEqual([]);
  });
});

describe('credential stuffing across a network', () => {
  it('flags a /24 where most logins fail, across rotating hosts', () => {
    const h = {
      failed_logins_subnet_1h: 12,
      failed_logins_subnet_24h: 40,
      logins_subnet_24h: 41,
      failed_accounts_subnet_24h: 40,
    };
    const s = logins.evaluate(baseFeatures({}, h));
    expect(s.map((x) => [x.rule, x.score])).toEqual([['failed_logins_subnet', 40]]);
  });
  it('leaves a shared network alone while most of its logins succeed', () => {
    const office = {
      failed_logins_subnet_1h: 8,
      failed_logins_subnet_24h: 12,
      logins_subnet_24h: 200,
      failed_accounts_subnet_24h: 10,
    };
    expect(logins.evaluate(baseFeatures({}, office))).toEqual([]);
  });
  it('flags failed logins from one IP with rotating user agents', () => {
    const s = logins.evaluate(baseFeatures({}, { failed_login_uas_ip_24h: 9 }));
    expect(s.map((x) => [x.rule, x.score])).toEqual([['login_ua_rotation', 30]]);
  });
});

describe('card testing', () => {
  it('reads account and device counts on a browser checkout without a payment hash', () => {
    const f = baseFeatures({ event_type: 'checkout', has_payment: false }, { payments_per_account_24h: 4 });
    expect(payments.evaluate(f).map((x) => x.rule)).toEqual(['payments_per_account']);
  });
  it('flags many cards per IP or network, and runs of small amounts', () => {
    const f = baseFeatures(
      { event_type: 'checkout', has_payment: true },
      { payments_per_ip_24h: 2, payments_per_subnet_24h: 16, small_payments_account_24h: 4 },
    );
    expect(payments.evaluate(f).map((x) => [x.rule, x.score])).toEqual([
      ['payments_per_ip', 35],
      ['small_amount_run', 20],
    ]);
  });
});

describe('promo abuse', () => {
  it('weighs mailbox aliases more on promo claims', () => {
    const h = { accounts_per_email_24h: 2 };
    expect(fanout.evaluate(baseFeatures({ event_type: 'signup' }, h))[0]?.score).toBe(20);
    expect(fanout.evaluate(baseFeatures({ event_type: 'promo_claim' }, h))[0]?.score).toBe(40);
    expect(
      fanout.evaluate(baseFeatures({ event_type: 'promo_claim' }, { accounts_per_email_24h: 4 }))[0]?.score,
    ).toBe(55);
  });
  it('scores identity clusters of 3+ accounts on promo claims only', () => {
    const cluster = {
      cluster_id: 'cl_x',
      linked_accounts: 3,
      shared_devices: 1,
      shared_ips: 1,
      shared_payments: 0,
    };
    expect(identity.evaluate(baseFeatures({ event_type: 'promo_claim', identity: cluster }))[0]?.rule).toBe(
      'identity_cluster',
    );
    expect(identity.evaluate(baseFeatures({ event_type: 'login', identity: cluster }))).toEqual([]);
    expect(
      identity.evaluate(
        baseFeatures({ event_type: 'promo_claim', identity: { ...cluster, linked_accounts: 1 } }),
      ),
    ).toEqual([]);
  });
});
