// OwnerSharedState over the in-process channel: what a worker's query gets from the primary, with
// the identity graph on the primary (embedded default) or in the worker (PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { counterEventOfRequest } from '../scoring/counter-ops.ts';
import { IdentityClusters } from '../scoring/identity.ts';
import { LocalSharedState, type StateQuery } from '../scoring/shared-state.ts';
import { insertSite, testSite } from '../scoring/test-fixtures.ts';
import { localStateDeps } from '../services.ts';
import { createTestContext } from '../testing/context.ts';
import { ownerPair } from '../testing/owner-pair.ts';
import { OwnerSharedState } from './owner-shared-state.ts';

const site = testSite('site_owner_state');

function query(account: string, extra: Partial<StateQuery> = {}): StateQuery {
  return {
    siteId: site.id,
    now: Date.now(),
    counters: counterEventOfRequest({
      eventType: 'login',
      accountId: account,
      ip: '203.0.113.40',
      deviceId: 'dev_shared',
      paymentHash: undefined,
      email: undefined,
      loginSucceeded: false,
      orderAmount: undefined,
      tokenId: '',
      userAgent: 'Mozilla/5.0',
      sdkServerCall: false,
      hardwareProfile: '',
    }),
    profileOf: '',
    nonce: '',
    identity: true,
    ...extra,
  };
}

describe('OwnerSharedState', () => {
  let primary: AppContext;
  beforeAll(async () => {
    primary = await createTestContext();
    await insertSite(primary, site);
  });
  afterAll(async () => {
    await primary.hotState.close();
    await primary.database.close();
  });

  it('answers as the primary’s own shared state: one count per event, whichever client asks', async () => {
    const shared = new LocalSharedState(localStateDeps(primary), primary.services.identity);
    const a = new OwnerSharedState(ownerPair({ hotState: primary.hotState, shared }).client);
    const b = new OwnerSharedState(ownerPair({ hotState: primary.hotState, shared }).client);
    await a.observe(query('acct_a1', { nonce: 'n-1' }));
    const second = await b.observe(query('acct_a2', { nonce: 'n-1' }));
    expect(second.counts.ip_1m).toBe(2);
    expect(second.counts.failed_logins_ip_1h).toBe(2);
    expect(second.counts.accounts_per_device_24h).toBe(2);
    // The nonce was used by the first worker's event.
    expect(second.nonceFresh).toBe(false);
    // One cluster: the other account of the device is linked.
    expect(second.identity?.linked_accounts).toBe(1);
  });

  it('updates a worker’s own identity graph when the primary keeps none, and not when refused', async () => {
    const shared = new LocalSharedState(localStateDeps(primary), undefined);
    const ownGraph = new IdentityClusters(primary);
    const worker = new OwnerSharedState(ownerPair({ hotState: primary.hotState, shared }).client, ownGraph);
    const limit: StateQuery['limit'] = ['scoring:s:owner-state-test', 1, 60_000];
    const first = await worker.observe(query('acct_b1', { limit }));
    expect(first.admitted?.allowed).toBe(true);
    expect(first.identity?.cluster_id).toBeTruthy();
    const refused = await worker.observe(query('acct_b2', { limit }));
    expect(refused.admitted?.allowed).toBe(false);
    expect(refused.identity).toBeUndefined();
    expect(refused.counts).toBeUndefined();
    expect(primary.hotState.count(`vel:${site.id}:acct:acct_b2`, 60_000)).toBe(0);
    // acct_b2 was neither counted nor linked: acct_b1's device still has no other account.
    const next = await worker.observe(query('acct_b1'));
    expect(next.identity?.linked_accounts).toBe(0);
  });
});
