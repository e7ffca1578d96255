import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import type { TestApp } from '../../testing/context.ts';
import {
  browserHeaders,
  createScoringTestApp,
  fakeEngine,
  loginEvent,
  mouseSamples,
  serverHeaders,
} from '../../testing/scoring-app.ts';

describe('POST /events/batch and /verify/batch', () => {
  const engine = fakeEngine({
    beforeScore: async (input) => {
      if (input.request.context.account_id === 'explode') throw new Error('engine broke');
    },
  });
  let t: TestApp;
  let w: TestWorkspace;
  beforeAll(async () => {
    t = await createScoringTestApp({ services: { engine } });
    w = await createTestWorkspace(t.ctx);
  });
  afterAll(() => t.close());

  const verifyBatch = (payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify/batch',
      headers: serverHeaders(w.site),
      payload: payload as object,
    });
  const browserBatch = (payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/antibot/events/batch',
      headers: browserHeaders(w.site.siteKey),
      payload: payload as object,
    });

  it('scores each event in order and counts successes and failures', async () => {
    const res = await verifyBatch({
      events: [
        loginEvent('a1'),
        { context: { event_type: 'login' } },
        { context: { event_type: 'checkout', account_id: 'a3', order_amount: 90 } },
        'not an object',
        { ...loginEvent('a5'), behavior: { mouse: mouseSamples(513) } },
        loginEvent('explode'),
      ],
    });
    expect(res.statusCode).toBe(201);
    const { results, succeeded, failed } = res.json().data;
    expect(results.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(succeeded).toBe(2);
    expect(failed).toBe(4);
    expect(results[0]).toMatchObject({ success: true, data: { classification: 'human', risk_score: 10 } });
    expect(results[1]).toMatchObject({
      success: false,
      error: { code: 'validation_failed', details: [{ path: 'body.events.1.context.account_id' }] },
    });
    expect(results[2].data).toMatchObject({ classification: 'bot', action: 'block' });
    expect(results[3].error.details[0].path).toBe('body.events.3');
    expect(results[4].error).toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'body.events.4.behavior' }],
    });
    expect(results[5]).toEqual({
      index: 5,
      success: false,
      error: { code: 'internal_error', message: 'Something went wrong on our side.' },
    });
    const recorded = await t.ctx.database.db
      .selectFrom('decisions')
      .select('id')
      .where('id', 'in', [results[0].data.request_id, results[2].data.request_id])
      .execute();
    expect(recorded).toHaveLength(2);
  });

  it('fails an event over 256 KiB alone with payload_too_large', async () => {
    const big = { ...loginEvent('big'), username: 'x'.repeat(260 * 1024) };
    const res = await verifyBatch({ events: [big, loginEvent('small')] });
    expect(res.statusCode).toBe(201);
    const [first, second] = res.json().data.results;
    expect(first).toMatchObject({ index: 0, success: false, error: { code: 'payload_too_large' } });
    expect(second.success).toBe(true);
  });

  it('holds 1 to 50 events', async () => {
    for (const events of [[], Array.from({ length: 51 }, (_, i) => loginEvent(`n${i}`))]) {
      const res = await verifyBatch({ events });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'validation_failed',
        details: [{ path: 'body.events' }],
      });
    }
    const fifty = await verifyBatch({ events: Array.from({ length: 50 }, (_, i) => loginEvent(`f${i}`)) });
    expect(fifty.statusCode).toBe(201);
    expect(fifty.json().data.succeeded).toBe(50);
  });

  it('rejects a body without events or with extra fields', async () => {
    expect((await verifyBatch({})).json().error.code).toBe('validation_failed');
    expect((await verifyBatch({ events: [loginEvent()], more: 1 })).json().error.details[0].path).toBe(
      'body.more',
    );
  });

  it('answers 413 for a batch body over 5 MiB, before auth', async () => {
    const chunk = 'x'.repeat(200 * 1024);
    const events = Array.from({ length: 27 }, (_, i) => ({ ...loginEvent(`h${i}`), username: chunk }));
    const res = await t.app.inject({ method: 'POST', url: '/api/antibot/verify/batch', payload: { events } });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('answers 200 when nothing new was recorded', async () => {
    const res = await verifyBatch({ events: [{ context: {} }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ succeeded: 0, failed: 1 });
  });

  it('browser batches need an allowed origin and strip login_succeeded per item', async () => {
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/events/batch',
      headers: { ...browserHeaders(w.site.siteKey), origin: 'https://evil.test' },
      payload: { events: [loginEvent()] },
    });
    expect(refused.statusCode).toBe(403);
    engine.calls.length = 0;
    const res = await browserBatch({
      events: [
        { context: { event_type: 'login', account_id: 'bb', login_succeeded: true, ip_address: '9.9.9.9' } },
      ],
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(engine.calls[0]!.request.context.login_succeeded).toBeUndefined();
    expect(engine.calls[0]!.ip).toBe('127.0.0.1');
  });
});
