import { createFastify } from '../http/app.ts';
import { type ScoringServices, scoringApi } from '../http/routes/scoring.ts';
import { productionScoringServices } from '../http/routes/scoring-area.ts';
import type { EngineResult, ScoringEngine, ScoringInput } from '../scoring/engine-types.ts';
import { createTestContext, type TestApp, type TestContextOptions, testAppOf } from './context.ts';

/**
 * The scoring routes on their own Fastify app with injectable services (same body parsing, error
 * handling and proxy settings as the real app), for tests that need a controllable engine.
 */
export async function createScoringTestApp(
  options: TestContextOptions & { services?: Partial<ScoringServices> } = {},
): Promise<TestApp> {
  const ctx = await createTestContext(options);
  const app = createFastify(ctx);
  const services = { ...productionScoringServices(ctx), ...options.services };
  await app.register(async (scope) => scoringApi(scope, ctx, services));
  await app.ready();
  return testAppOf(app, ctx);
}

/** A predictable engine: the score is `context.order_amount` (default 10), one signal explains it. */
export function fakeEngine(
  hooks: { beforeScore?: (input: ScoringInput) => Promise<void> } = {},
): ScoringEngine & {
  calls: ScoringInput[];
} {
  const calls: ScoringInput[] = [];
  return {
    calls,
    async score(input: ScoringInput): Promise<EngineResult> {
      calls.push(input);
      await hooks.beforeScore?.(input);
      const score = Math.min(100, Math.round(input.request.context.order_amount ?? 10));
      const level = score < 30 ? 'low' : score < 60 ? 'medium' : score < 85 ? 'high' : 'critical';
      return {
        signals: [{ rule: 'fake_amount', score, description: 'Score taken from order_amount.' }],
        risk_score: score,
        risk_level: level,
        classification: level === 'low' ? 'human' : level === 'critical' ? 'bot' : 'suspicious',
        action:
          level === 'low'
            ? 'allow'
            : level === 'medium'
              ? 'review'
              : level === 'high'
                ? 'challenge'
                : 'block',
        device_id: input.request.token ? `dev_${input.request.token}` : '',
        ...(level === 'high'
          ? {
              challenge: {
                challenge_id: 'ch_fake',
                algorithm: 'SHA-256',
                salt: 's',
                challenge: 'c',
                maxnumber: 16384,
                difficulty: 14,
                expires_at: new Date(input.now).toISOString(),
                extra: 1,
              },
            }
          : {}),
        ruleset_version: 'rs_fake',
        features: { amount: score },
        evidence: { fake: true },
      };
    },
  };
}

export const BROWSER_ORIGIN = 'https://shop.example';

export function browserHeaders(siteKey: string, origin = BROWSER_ORIGIN): Record<string, string> {
  return { 'x-site-key': siteKey, origin, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' };
}

export function serverHeaders(site: { siteKey: string; secretKey: string }): Record<string, string> {
  return { 'x-site-key': site.siteKey, 'x-secret-key': site.secretKey };
}

export function loginEvent(accountId = 'acct_1', extra: Record<string, unknown> = {}) {
  return { context: { event_type: 'login', account_id: accountId, ip_address: '203.0.113.7' }, ...extra };
}

/** `n` mouse samples [t, x, y]: each counts 4 toward the limit (the sample and its three values). */
export function mouseSamples(n: number): number[][] {
  return Array.from({ length: n }, (_, i) => [i, i % 800, i % 600]);
}
