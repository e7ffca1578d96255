import { randomUUID } from 'node:crypto';
import { insertDecisionRows } from '../decisions/decision-insert.ts';
import type { Database } from '../storage/db.ts';
import type { DecisionsTable } from '../storage/scoring-schema.ts';

/**
 * Recorded decisions written straight to the database, for backtest tests and benchmarks:
 * a mix of quiet logins and fast ones from a few IPs, with realistic features.
 */
export async function seedDecisions(
  database: Database,
  siteId: string,
  workspaceId: string,
  count: number,
  start: number,
): Promise<void> {
  const batch: DecisionsTable[] = [];
  for (let i = 0; i < count; i++) {
    const fast = i % 10 === 0;
    const signals = fast
      ? [{ rule: 'velocity_ip_1m', score: 35, description: 'Many events from this IP in a minute.' }]
      : [];
    const score = fast ? 35 : 0;
    const features = {
      event_type: 'login',
      surface: 'server',
      login_succeeded: i % 7 !== 0,
      history: { ip_1m: fast ? 40 : 1, account_1h: 1 },
    };
    batch.push({
      id: randomUUID(),
      site_id: siteId,
      workspace_id: workspaceId,
      event_type: i % 3 === 0 ? 'checkout' : 'login',
      account_id: `acct-${i % 500}`,
      email: `user${i % 500}@example.com`,
      ip_address: fast ? `203.0.113.${i % 4}` : `198.51.100.${i % 250}`,
      user_agent: 'Mozilla/5.0',
      device_id: `dev_${i % 700}`,
      payment_hash: i % 3 === 0 ? `pay_${i % 90}` : null,
      promo_code: null,
      order_amount: i % 3 === 0 ? (i % 50) + 1 : null,
      risk_score: score,
      risk_level: fast ? 'medium' : 'low',
      classification: fast ? 'suspicious' : 'human',
      action: fast ? 'review' : 'allow',
      signals: JSON.stringify(signals),
      features: JSON.stringify(features),
      evidence: '{}',
      response: JSON.stringify({
        identity: {
          cluster_id: '',
          linked_accounts: 0,
          shared_devices: 0,
          shared_ips: 0,
          shared_payments: 0,
        },
      }),
      ruleset_version: 'rs_seed',
      decision_ms: 0.2,
      label: null,
      labeled_at: null,
      created_at: start + i,
    });
    if (batch.length === 500 || i === count - 1) {
      await insertDecisionRows(database.db, batch);
      batch.length = 0;
    }
  }
}
