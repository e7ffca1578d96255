import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_RETENTION_MS } from '../decisions/key-queries.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/accounts.ts';
import type { TestApp } from '../testing/context.ts';
import { browserHeaders, createScoringTestApp, fakeEngine, serverHeaders } from '../testing/scoring-app.ts';
import { canonicalBodyHash, canonicalJson } from './idempotency.ts';

describe('canonical body hash', () => {
  it('ignores key order and whitespace, not values', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(canonicalBodyHash(JSON.parse('{"a":1,"b":2}'))).toBe(
      canonicalBodyHash(JSON.parse('{ "b":2, "a":1 }')),
    );
    expect(canonicalBodyHash({ a: 1 })).not.toBe(canonicalBodyHash({ a: 2 }));
    expect(canonicalBodyHash({ a: [1, 2] })).not.toBe(canonicalBodyHash({ a: [2, 1] }));
  });
});

// On a database file the writer thread commits; in memory this thread does.
describe.each([
  { where: 'in-memory SQLite', sqliteFile: false },
  { where: 'a SQLite file (writer thread)', sqliteFile: true },
])('idempotency (SPEC §3) on $where', ({ sqliteFile }) => {
  let gate: Promise<void> = Promise.resolve();
  let scored = 0;
  const engine = fakeEngine({
    beforeScore: () => {
      scored++;
      return gate;
    },
  });
  let t: TestApp;
  let w: TestWorkspace;
  beforeAll(async () => {
    t = await createScoringTestApp({ services: { engine }, sqliteFile });
    w = await createTestWorkspace(t.ctx);
  });
  afterAll(() => t.close());

  const body = (key: string, accountId = 'acct', amount = 5) => ({
    context: { event_type: 'checkout', account_id: accountId, order_amount: amount },
    idempotency_key: key,
  });
  const verify = (payload: unknown, site = w.site) =>
    t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: serverHeaders(site),
      payload: payload as object,
    });
  const collect = (payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/antibot/collect',
      headers: browserHeaders(w.site.siteKey),
      payload: payload as object,
    });
  const decisionsFor = async (accountId: string) =>
    (
      await t.ctx.database.db
        .selectFrom('decisions')
        .select('id')
        .where('account_id', '=', accountId)
        .execute()
    ).length;

  it('replays the recorded decision for the same key and body: 200, same request_id, header', async () => {
    const first = await verify(body('k-replay', 'acct-replay'));
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Same JSON, other key order: still the same body.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: { ...serverHeaders(w.site), 'content-type': 'application/json' },
      payload:
        '{"idempotency_key":"k-replay","context":{"order_amount":5,"account_id":"acct-replay","event_type":"checkout"}}',
    });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const [a, b] = [first.json().data, again.json().data];
    expect(b).toEqual({ ...a, idempotent_replay: true });
    expect(await decisionsFor('acct-replay')).toBe(1);
  });

  it('answers 409 idempotency_conflict for the same key with another body', async () => {
    await verify(body('k-conflict', 'acct-conflict', 5));
    const res = await verify(body('k-conflict', 'acct-conflict', 6));
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('idempotency_conflict');
    expect(await decisionsFor('acct-conflict')).toBe(1);
  });

  it('answers 409 idempotency_in_progress while the first is in flight, then replays', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => {
      open = resolve;
    });
    const before = scored;
    const first = verify(body('k-flight', 'acct-flight'));
    for (let i = 0; i < 100 && scored === before; i++) await new Promise((r) => setTimeout(r, 5));
    expect(scored).toBe(before + 1); // the first request is being scored, its key not yet recorded
    const during = await verify(body('k-flight', 'acct-flight'));
    expect(during.statusCode).toBe(409);
    expect(during.json().error.code).toBe('idempotency_in_progress');
    const otherBody = await verify(body('k-flight', 'acct-flight', 99));
    expect(otherBody.json().error.code).toBe('idempotency_conflict');
    gate = Promise.resolve();
    open();
    expect((await first).statusCode).toBe(201);
    expect((await verify(body('k-flight', 'acct-flight'))).statusCode).toBe(200);
    expect(await decisionsFor('acct-flight')).toBe(1);
  });

  it('two simultaneous requests with one key make one decision', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => verify(body('k-race', 'acct-race'))));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.statusCode !== 201)) {
      expect([200, 409]).toContain(r.statusCode);
      if (r.statusCode === 409) expect(r.json().error.code).toBe('idempotency_in_progress');
    }
    expect(await decisionsFor('acct-race')).toBe(1);
  });

  it('makes one decision even when processes share no in-flight lock: the latecomers replay it', async () => {
    const { hotState } = t.ctx;
    const realLock = hotState.lock;
    hotState.lock = async () => null; // every request believes it holds the key, as separate processes would
    try {
      const results = await Promise.all(
        Array.from({ length: 5 }, () => verify(body('k-no-lock', 'acct-no-lock'))),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
      const ids = new Set(results.map((r) => r.json().data.request_id));
      expect(ids.size).toBe(1);
    } finally {
      hotState.lock = realLock;
    }
    expect(await decisionsFor('acct-no-lock')).toBe(1);
  });

  it('scopes keys by site and route', async () => {
    const other = await createTestWorkspace(t.ctx);
    expect((await verify(body('k-scope', 'acct-scope'))).statusCode).toBe(201);
    expect((await verify(body('k-scope', 'acct-scope'), other.site)).statusCode).toBe(201);
    expect((await collect(body('k-scope', 'acct-scope'))).statusCode).toBe(201);
    expect(await decisionsFor('acct-scope')).toBe(3);
  });

  it('batch items share the scope of /collect and /verify', async () => {
    const viaCollect = await collect(body('k-batch-b', 'acct-batch'));
    const viaVerify = await verify(body('k-batch-s', 'acct-batch'));
    const browserBatch = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/events/batch',
      headers: browserHeaders(w.site.siteKey),
      payload: { events: [body('k-batch-b', 'acct-batch'), body('k-batch-s', 'acct-batch', 7)] },
    });
    const items = browserBatch.json().data.results;
    expect(items[0].data).toEqual({ ...viaCollect.json().data, idempotent_replay: true });
    expect(items[1].success).toBe(true); // k-batch-s is a /verify key: new on the browser scope
    const serverBatch = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify/batch',
      headers: serverHeaders(w.site),
      payload: { events: [body('k-batch-s', 'acct-batch'), body('k-batch-s', 'acct-batch', 8)] },
    });
    expect(serverBatch.statusCode).toBe(200); // nothing new recorded
    const [replayed, conflicting] = serverBatch.json().data.results;
    expect(replayed.data.request_id).toBe(viaVerify.json().data.request_id);
    expect(conflicting).toMatchObject({ index: 1, success: false, error: { code: 'idempotency_conflict' } });
  });

  it('forgets keys after 24 hours', async () => {
    await verify(body('k-expire', 'acct-expire'));
    const realNow = t.ctx.now;
    t.ctx.now = () => realNow() + IDEMPOTENCY_RETENTION_MS + 1000;
    try {
      const later = await verify(body('k-expire', 'acct-expire', 9));
      expect(later.statusCode).toBe(201);
    } finally {
      t.ctx.now = realNow;
    }
    expect(await decisionsFor('acct-expire')).toBe(2);
  });

  it('compares with a key recorded by an earlier version (canonical JSON hash): replay or conflict', async () => {
    const first = await verify(body('k-older', 'acct-older'));
    expect(first.statusCode).toBe(201);
    // As versions before body digests recorded it.
    await t.ctx.database.db
      .updateTable('idempotency_keys')
      .set({ body_hash: canonicalBodyHash(body('k-older', 'acct-older')) })
      .where('key', '=', 'k-older')
      .execute();
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: { ...serverHeaders(w.site), 'content-type': 'application/json' },
      payload:
        '{"idempotency_key":"k-older","context":{"order_amount":5.0,"account_id":"acct-older","event_type":"checkout"}}',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.request_id).toBe(first.json().data.request_id);
    const other = await verify(body('k-older', 'acct-older', 6));
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('idempotency_conflict');
    expect(await decisionsFor('acct-older')).toBe(1);
  });

  it('takes over a key row left without its decision (by an earlier version that crashed)', async () => {
    await t.ctx.database.db
      .insertInto('idempotency_keys')
      .values({
        site_id: w.site.id,
        route: 'verify',
        key: 'k-crashed',
        body_hash: 'whatever',
        decision_id: 'crashed-before-recording',
        created_at: Date.now() - 1000,
      })
      .execute();
    expect((await verify(body('k-crashed', 'acct-crashed'))).statusCode).toBe(201);
    expect((await verify(body('k-crashed', 'acct-crashed'))).statusCode).toBe(200);
  });
});
