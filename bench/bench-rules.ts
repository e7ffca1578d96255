import type { AppContext } from '../packages/server/src/context.ts';
import { createRule } from '../packages/server/src/rules/repo.ts';

/**
 * Custom rules as analysts write them (docs/rules.md), cycled to any count: thresholds over
 * features and history, event-context checks, signal combinations, identity and string matching.
 * Each copy gets its own threshold so no two rules are the same expression.
 */
const TEMPLATES: Array<(i: number) => { expression: string; score: number; eventTypes?: string[] }> = [
  (i) => ({ expression: `features.history.ip_1m > ${20 + i}.0`, score: 20 }),
  (i) => ({
    expression: `event.type == "login" && features.history.failed_logins_account_1h > ${3 + (i % 5)}.0`,
    score: 25,
    eventTypes: ['login'],
  }),
  (i) => ({
    expression: `event.order_amount != null && event.order_amount < ${1 + (i % 4)}.0 && identity.shared_payments > 0`,
    score: 15,
    eventTypes: ['checkout'],
  }),
  () => ({ expression: 'has(signals.datacenter_ip) && has(signals.token_missing)', score: 10 }),
  (i) => ({ expression: `score > ${40 + (i % 30)}.0 && event.surface == "server"`, score: 5 }),
  (i) => ({
    expression: `event.email != null && event.email.endsWith("@example-${i}.test")`,
    score: 30,
  }),
  (i) => ({ expression: `ip.version == 6 && features.history.accounts_per_ip_24h > ${5 + i}.0`, score: 15 }),
  (i) => ({
    expression: `event.user_agent != null && event.user_agent.contains("Bench-${i}")`,
    score: 40,
  }),
  (i) => ({ expression: `identity.linked_accounts > ${10 + i}.0`, score: 20 }),
  (i) => ({
    expression: `event.request_url != null && event.request_url.startsWith("https://shop.example/admin/${i}")`,
    score: 35,
  }),
];

export async function createBenchRules(ctx: AppContext, siteId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const t = TEMPLATES[i % TEMPLATES.length]!(i);
    await createRule(ctx, siteId, {
      name: `bench_rule_${i}`,
      expression: t.expression,
      score: t.score,
      ...(t.eventTypes ? { eventTypes: t.eventTypes as never } : {}),
      ...(i % 5 === 4 ? { mode: 'shadow' as const } : {}),
    });
  }
}
