import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { registerFingerprint } from '../fingerprint/register.ts';
import { createTestContext } from '../testing/context.ts';
import { testEngine } from '../testing/scoring-engine.ts';
import { countedAccount } from './account-key.ts';
import { counterEventOfRequest, counterOps } from './counter-ops.ts';
import { IdentityGraph } from './identity-graph.ts';
import { FINGERPRINT, makeInput, rules, testSite } from './test-fixtures.ts';

let ctx: AppContext;
beforeEach(async () => {
  let clock = 1_700_000_000_000;
  ctx = await createTestContext({ now: () => (clock += 1000) });
});
afterEach(async () => {
  await ctx.hotState.close();
  await ctx.database.close();
});

const event = (accountId: string) =>
  counterEventOfRequest({
    eventType: 'page_view',
    accountId,
    ip: '203.0.113.7',
    deviceId: 'dev_1',
    paymentHash: null,
    email: null,
    loginSucceeded: null,
    orderAmount: null,
    tokenId: 'tok_1',
    userAgent: 'Mozilla/5.0',
    sdkServerCall: false,
    hardwareProfile: '',
  });

describe('placeholder accounts', () => {
  it('are no account, whatever their case and padding; real ids are kept as sent', () => {
    for (const id of ['', '  ', 'anonymous', 'Anonymous', ' guest ', 'null', 'undefined', 'N/A', '-'])
      expect(countedAccount(id)).toBe('');
    for (const id of ['ada@example.com', 'acct_1', '0', 'Guest123', 'anonymous-42'])
      expect(countedAccount(id)).toBe(id);
  });

  it('take no part in any account-keyed counter', () => {
    const accountKeyed = (id: string) =>
      counterOps('site_1', event(id)).flatMap((op) =>
        !op.field.includes('account')
          ? []
          : op.kind === 'distinct'
            ? [`${op.field}:${op.member}`]
            : op.kind === 'hit'
              ? [`${op.field}:${op.key}`]
              : [],
      );
    expect(accountKeyed('anonymous')).toEqual([
      // Keyed on the device, IP and token, asked (member null), never counting the placeholder.
      'accounts_per_device_24h:null',
      'accounts_per_ip_24h:null',
      'token_accounts_24h:null',
      'failed_accounts_subnet_24h:null',
    ]);
    expect(accountKeyed('ada')).toEqual(
      expect.arrayContaining([
        'accounts_per_device_24h:ada',
        'token_accounts_24h:ada',
        'account_1h:vel:site_1:acct:ada',
      ]),
    );
  });

  it('link nothing in the identity graph', () => {
    const graph = new IdentityGraph(1 << 20);
    const at = 1_700_000_000_000;
    expect(
      graph.observe(1, { accountId: 'guest', deviceId: 'd', paymentHash: 'p', ip: '1.2.3.4', at }),
    ).toBeNull();
    graph.observe(1, { accountId: 'ada', deviceId: 'd', paymentHash: '', ip: '', at });
    const bob = graph.observe(1, { accountId: 'bob', deviceId: 'e', paymentHash: 'p', ip: '', at });
    // bob shares the payment hash only with the placeholder: no link.
    expect(bob && graph.counts(bob).size).toBe(1);
  });

  it("the demo shop's page view (account anonymous), sign-up, then checkout as another account: no fan-out or token reuse", async () => {
    const site = testSite();
    const { token } = await registerFingerprint(ctx, site, { fingerprint: FINGERPRINT });
    const engine = testEngine(ctx);
    const score = (event_type: 'page_view' | 'signup' | 'checkout' | 'login', account_id: string) =>
      engine.score(makeInput(ctx, { token, context: { event_type, account_id } }, { site }));
    expect(rules(await score('page_view', 'anonymous'))).toEqual([]);
    expect(rules(await score('signup', 'new.customer@example.com'))).toEqual([]);
    const checkout = await score('checkout', 'shopper@example.com');
    expect(rules(checkout)).not.toContain('token_reused');
    expect(rules(checkout)).not.toContain('accounts_per_device');
    // Three real accounts on one page session are still a replayed token.
    expect(rules(await score('login', 'third@example.com'))).toEqual(
      expect.arrayContaining(['token_reused', 'accounts_per_device']),
    );
  });
});
