import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { idTime } from '../decisions/decision-id.ts';
import type { DecisionLog } from '../decisions/decision-log.ts';
import { openDecisionLog } from '../decisions/open-decision-log.ts';
import type { Database } from '../storage/db.ts';
import { openTestDatabase, testDialects } from '../testing/context.ts';
import { cancelDeliveriesWithoutPlan, cancelPendingDeliveries, OutboxSignal } from './outbox.ts';
import { internalAccountId } from './payload.ts';
import { configureWebhook, createSite, decisionRow, setPlan } from './test-fixtures.ts';

describe.each(testDialects())('outbox on %s', (dialect) => {
  let database: Database;
  let decisions: DecisionLog;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    decisions = openDecisionLog(database, new OutboxSignal());
  });
  afterEach(() => database.close());

  const deliveries = () => database.db.selectFrom('webhook_deliveries').selectAll().execute();

  it('writes one pending delivery per decision with the exact interface 6.3 payload', async () => {
    const site = await createSite(database, 'pro');
    await configureWebhook(database, site.siteId, 'https://hooks.example.com/w');
    const decision = decisionRow(site, { created_at: Date.UTC(2025, 0, 2, 3, 4, 5, 6) });
    await decisions.record(decision);
    const rows = await deliveries();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 0,
      decision_id: decision.id,
      site_id: site.siteId,
    });
    const payload = JSON.parse(row.payload);
    expect(payload).toEqual({
      id: row.id,
      type: 'decision.created',
      createdAt: new Date(row.created_at).toISOString(),
      data: {
        id: decision.id,
        siteId: site.siteId,
        accountId: internalAccountId(site.siteId, 'user-42'),
        type: 'checkout',
        riskScore: 72,
        riskLevel: 'high',
        classification: 'suspicious',
        signals: { datacenter_ip: 42, headless: 30, trusted_device: 0 },
        rulesTriggered: ['datacenter_ip', 'headless'],
        deviceFingerprint: 'dev_abc',
        ipAddress: '203.0.113.9',
        userAgent: 'Mozilla/5.0',
        metadata: {
          action: 'challenge',
          decisionMs: 3.5,
          signalEvidence: [
            { name: 'datacenter_ip', score: 40, description: 'IP in a hosting range' },
            { name: 'headless', score: 30, description: 'Headless browser' },
            { name: 'trusted_device', score: 0, description: 'Seen before' },
            { name: 'datacenter_ip', score: 2, description: 'second hit' },
          ],
        },
        createdAt: '2025-01-02T03:04:05.006Z',
      },
    });
    expect(payload.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Time-ordered (UUID version 7): new deliveries land at the end of the primary-key index.
    expect(idTime(payload.id)).toBe(row.created_at);
    expect('amount' in payload.data.metadata).toBe(false);
    expect('paymentHash' in payload.data.metadata).toBe(false);
  });

  it('includes amount and payment hash when present, "" for unknown ip and user agent', async () => {
    const site = await createSite(database, 'enterprise');
    await configureWebhook(database, site.siteId, 'https://hooks.example.com/w');
    await decisions.record(
      decisionRow(site, { order_amount: 0, payment_hash: 'pm_1', ip_address: '', user_agent: '' }),
    );
    const data = JSON.parse((await deliveries())[0]!.payload).data;
    expect(data.metadata.amount).toBe(0);
    expect(data.metadata.paymentHash).toBe('pm_1');
    expect(data.ipAddress).toBe('');
    expect(data.userAgent).toBe('');
  });

  it('keeps accountId stable per (site, account) and distinct across sites', () => {
    expect(internalAccountId('s1', 'a')).toBe(internalAccountId('s1', 'a'));
    expect(internalAccountId('s1', 'a')).not.toBe(internalAccountId('s2', 'a'));
    expect(internalAccountId('s1', 'a')).toMatch(/^acct_[0-9a-f]{24}$/);
  });

  it('writes nothing without a webhook, with a disabled webhook or on the free plan', async () => {
    const none = await createSite(database, 'pro');
    await decisions.record(decisionRow(none));
    const disabled = await createSite(database, 'pro');
    await configureWebhook(database, disabled.siteId, 'https://hooks.example.com/w', false);
    await decisions.record(decisionRow(disabled));
    const free = await createSite(database, 'free');
    await configureWebhook(database, free.siteId, 'https://hooks.example.com/w');
    await decisions.record(decisionRow(free));
    expect(await deliveries()).toHaveLength(0);
  });

  it('lets the demo workspace through on any plan', async () => {
    const demo = await createSite(database, 'free', true);
    await configureWebhook(database, demo.siteId, 'https://hooks.example.com/w');
    await decisions.record(decisionRow(demo));
    expect(await deliveries()).toHaveLength(1);
  });

  it('rolls back with the decision: no decision, no delivery', async () => {
    const site = await createSite(database, 'pro');
    await configureWebhook(database, site.siteId, 'https://hooks.example.com/w');
    const decision = decisionRow(site);
    await decisions.record(decision);
    await expect(decisions.record(decision)).rejects.toThrow();
    expect(await deliveries()).toHaveLength(1);
  });

  it('cancels queued deliveries when the webhook is disabled or the plan is lost', async () => {
    const a = await createSite(database, 'pro');
    const b = await createSite(database, 'pro');
    for (const s of [a, b]) {
      await configureWebhook(database, s.siteId, 'https://hooks.example.com/w');
      await decisions.record(decisionRow(s));
    }
    expect(await cancelPendingDeliveries(database.db, a.siteId, 'the webhook is disabled')).toBe(1);
    await setPlan(database, b.workspaceId, 'free');
    expect(await cancelDeliveriesWithoutPlan(database.db)).toBe(1);
    const rows = await deliveries();
    expect(rows.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
  });
});
