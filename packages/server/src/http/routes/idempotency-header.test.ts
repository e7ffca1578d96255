import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import { browserHeaders, loginEvent, serverHeaders } from '../../testing/scoring-app.ts';

/** The `Idempotency-Key` header (SPEC §11) through the whole app: real routes, real engine. */
describe('Idempotency-Key header on the scoring routes', () => {
  let t: TestApp;
  let w: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createTestWorkspace(t.ctx, { origins: ['https://shop.example'] });
  });
  afterAll(() => t.close());

  const send = (url: string, headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const verify = (payload: object, key?: string) =>
    send(
      '/api/antibot/verify',
      { ...serverHeaders(w.site), ...(key ? { 'idempotency-key': key } : {}) },
      payload,
    );
  const decisionsOf = async (accountId: string) =>
    (
      await t.ctx.database.db
        .selectFrom('decisions')
        .select('id')
        .where('site_id', '=', w.site.id)
        .where('account_id', '=', accountId)
        .execute()
    ).map((r) => r.id);

  it('two identical calls with the header record one decision; the second is a replay', async () => {
    const first = await verify(loginEvent('acct_hdr_1'), 'order-1001');
    const second = await verify(loginEvent('acct_hdr_1'), 'order-1001');
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().data.request_id).toBe(first.json().data.request_id);
    expect(second.json().data.idempotent_replay).toBe(true);
    expect(await decisionsOf('acct_hdr_1')).toEqual([first.json().data.request_id]);
  });

  it('the header and the body field are the same key: one replays the other', async () => {
    const byHeader = await verify(loginEvent('acct_hdr_2'), 'order-1002');
    const byBody = await verify({ ...loginEvent('acct_hdr_2'), idempotency_key: 'order-1002' });
    const byBoth = await verify({ ...loginEvent('acct_hdr_2'), idempotency_key: 'order-1002' }, 'order-1002');
    expect(byHeader.statusCode).toBe(201);
    expect(byBody.statusCode).toBe(200);
    expect(byBoth.statusCode).toBe(200);
    expect(byBody.json().data.request_id).toBe(byHeader.json().data.request_id);
    expect(byBoth.json().data.request_id).toBe(byHeader.json().data.request_id);
    expect(await decisionsOf('acct_hdr_2')).toHaveLength(1);
  });

  it('the same header key with another body is 409 idempotency_conflict', async () => {
    expect((await verify(loginEvent('acct_hdr_3'), 'order-1003')).statusCode).toBe(201);
    const other = await verify(loginEvent('acct_hdr_3b'), 'order-1003');
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('idempotency_conflict');
  });

  it('header and body key both given and different → 400 validation_failed naming the header', async () => {
    const res = await verify({ ...loginEvent('acct_hdr_4'), idempotency_key: 'body-key' }, 'header-key');
    expect(res.statusCode).toBe(400);
    const error = res.json().error;
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([
      { path: 'headers.idempotency-key', message: expect.stringContaining('differs') },
    ]);
    expect(await decisionsOf('acct_hdr_4')).toHaveLength(0);
  });

  it('a malformed header → 400 validation_failed; nothing is recorded', async () => {
    for (const bad of ['has space', 'x'.repeat(129), 'a/b']) {
      const res = await verify(loginEvent('acct_hdr_5'), bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0].path).toBe('headers.idempotency-key');
    }
    expect(await decisionsOf('acct_hdr_5')).toHaveLength(0);
  });

  it('works on the browser route /collect', async () => {
    const headers = { ...browserHeaders(w.site.siteKey), 'idempotency-key': 'page-7' };
    const first = await send('/api/antibot/collect', headers, loginEvent('acct_hdr_6'));
    const second = await send('/api/antibot/collect', headers, loginEvent('acct_hdr_6'));
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json().data.request_id).toBe(first.json().data.request_id);
    expect(await decisionsOf('acct_hdr_6')).toHaveLength(1);
  });

  it('a batch sent again with the same header answers the same decisions; items keep their own keys', async () => {
    const headers = { ...serverHeaders(w.site), 'idempotency-key': 'batch-1' };
    const payload = {
      events: [loginEvent('acct_hdr_7a'), { ...loginEvent('acct_hdr_7b'), idempotency_key: 'own-7b' }],
    };
    const first = await send('/api/antibot/verify/batch', headers, payload);
    const again = await send('/api/antibot/verify/batch', headers, payload);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    const ids = (res: typeof first) =>
      res.json().data.results.map((r: { data: { request_id: string } }) => r.data.request_id);
    expect(ids(again)).toEqual(ids(first));
    // Item 0 took `<header>:0`, the same key as a single /verify with it in the body.
    const single = await verify({ ...loginEvent('acct_hdr_7a'), idempotency_key: 'batch-1:0' });
    expect(single.statusCode).toBe(200);
    expect(single.json().data.request_id).toBe(ids(first)[0]);
    const own = await verify({ ...loginEvent('acct_hdr_7b'), idempotency_key: 'own-7b' });
    expect(own.json().data.request_id).toBe(ids(first)[1]);
  });
});
