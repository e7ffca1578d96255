import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unpackDecision } from '../decisions/packed-row.ts';
import type { DecisionsTable } from '../storage/scoring-schema.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/accounts.ts';
import { type TestApp, testDialects } from '../testing/context.ts';
import { createScoringTestApp, fakeEngine, serverHeaders } from '../testing/scoring-app.ts';
import { configureWebhook } from '../webhooks/test-fixtures.ts';

// Watch the outbox row being built: once per new decision, in the recording transaction (a failure
// there must leave no decision behind).
const outbox = vi.hoisted(() => ({ calls: [] as Array<{ id: string }>, fail: false }));
vi.mock('../webhooks/outbox.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../webhooks/outbox.ts')>();
  return {
    ...real,
    deliveryRow: (row: DecisionsTable, nowMs: number) => {
      outbox.calls.push({ id: row.id });
      if (outbox.fail) throw new Error('outbox down');
      return real.deliveryRow(row, nowMs);
    },
  };
});

describe.each(testDialects())('recording and idempotency on %s', (dialect) => {
  let t: TestApp;
  let w: TestWorkspace;
  beforeAll(async () => {
    t = await createScoringTestApp({ dialect, services: { engine: fakeEngine() } });
    w = await createTestWorkspace(t.ctx, { plan: 'pro' });
    // No dispatcher runs here: the deliveries stay queued where the test can see them.
    await configureWebhook(t.ctx.database, w.site.id, 'https://hooks.example/warden');
  });
  afterAll(() => t.close());

  const verify = (payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: serverHeaders(w.site),
      payload: payload as object,
    });
  const event = (accountId: string, extra: Record<string, unknown> = {}) => ({
    context: { event_type: 'checkout', account_id: accountId, order_amount: 123456.78, ...extra },
  });
  const count = async (accountId: string) =>
    (
      await t.ctx.database.db
        .selectFrom('decisions')
        .select('id')
        .where('account_id', '=', accountId)
        .execute()
    ).length;

  it('records the decision and its outbox row in one transaction, with exact values', async () => {
    outbox.calls.length = 0;
    const res = await verify(event('acct-exact', { payment_hash: 'pm_x' }));
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(outbox.calls).toEqual([{ id: data.request_id }]);
    const deliveries = await t.ctx.database.db
      .selectFrom('webhook_deliveries')
      .select('decision_id')
      .where('decision_id', '=', data.request_id)
      .execute();
    expect(deliveries).toHaveLength(1);
    const row = await t.ctx.database.db
      .selectFrom('decisions')
      .selectAll()
      .where('id', '=', data.request_id)
      .executeTakeFirstOrThrow();
    expect(row.order_amount).toBe(123456.78);
    expect(row.decision_ms).toBe(data.decision_ms);
    expect(row.created_at).toBe(Date.parse(data.timestamp));
    expect(typeof row.created_at).toBe('number');
    expect(row.payment_hash).toBe('pm_x');
    expect(JSON.parse(unpackDecision(row).response)).toEqual(data);
  });

  it('records nothing when the transaction fails, and frees the key', async () => {
    outbox.fail = true;
    try {
      const res = await verify({ ...event('acct-rollback'), idempotency_key: 'rollback-1' });
      expect(res.statusCode).toBe(500);
    } finally {
      outbox.fail = false;
    }
    expect(await count('acct-rollback')).toBe(0);
    expect((await verify({ ...event('acct-rollback'), idempotency_key: 'rollback-1' })).statusCode).toBe(201);
    expect(await count('acct-rollback')).toBe(1);
  });

  it('replays without a new decision or webhook, and refuses a changed body', async () => {
    outbox.calls.length = 0;
    const payload = { ...event('acct-idem'), idempotency_key: 'idem-1' };
    const first = await verify(payload);
    const second = await verify(payload);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().data.request_id).toBe(first.json().data.request_id);
    expect(outbox.calls).toHaveLength(1);
    const changed = await verify({ ...event('acct-idem', { order_amount: 1 }), idempotency_key: 'idem-1' });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error.code).toBe('idempotency_conflict');
    expect(await count('acct-idem')).toBe(1);
  });

  it('makes one decision from simultaneous requests with one key', async () => {
    const payload = { ...event('acct-race'), idempotency_key: 'race-1' };
    const results = await Promise.all(Array.from({ length: 8 }, () => verify(payload)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const r of results) expect([200, 201, 409]).toContain(r.statusCode);
    expect(await count('acct-race')).toBe(1);
  });
});
