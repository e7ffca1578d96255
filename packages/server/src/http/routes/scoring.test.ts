import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idTime } from '../../decisions/decision-id.ts';
import { unpackDecision } from '../../decisions/packed-row.ts';
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

describe('POST /collect and /verify', () => {
  const engine = fakeEngine();
  let t: TestApp;
  let w: TestWorkspace;
  beforeAll(async () => {
    t = await createScoringTestApp({ services: { engine } });
    w = await createTestWorkspace(t.ctx, { plan: 'pro' });
  });
  afterAll(() => t.close());

  const post = (url: string, headers: Record<string, string>, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers, payload: payload as object });
  const verify = (payload: unknown) => post('/api/antibot/verify', serverHeaders(w.site), payload);
  const collect = (payload: unknown, extra: Record<string, string> = {}) =>
    post('/api/antibot/collect', { ...browserHeaders(w.site.siteKey), ...extra }, payload);

  describe('happy', () => {
    it('answers 201 with every Decision field and records it before answering', async () => {
      const res = await verify(
        loginEvent('acct_happy', {
          context: {
            event_type: 'checkout',
            account_id: 'acct_happy',
            order_amount: 42,
            email: 'a@b.test',
            payment_hash: 'pm_1',
            promo_code: 'P',
            ip_address: '198.51.100.1',
            user_agent: 'UA/1',
          },
        }),
      );
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
      const d = body.data;
      expect(d).toMatchObject({
        classification: 'suspicious',
        risk_score: 42,
        risk_level: 'medium',
        action: 'review',
        device_id: '',
        signals: [{ rule: 'fake_amount', score: 42, description: expect.any(String) }],
        ruleset_version: 'rs_fake',
        idempotent_replay: false,
      });
      expect(typeof d.decision_ms).toBe('number');
      expect(new Date(d.timestamp).toISOString()).toBe(d.timestamp);
      // A time-ordered UUID (version 7) whose first 48 bits are the decision's time.
      expect(d.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(idTime(d.request_id)).toBe(Date.parse(d.timestamp));
      const row = await t.ctx.database.db
        .selectFrom('decisions')
        .selectAll()
        .where('id', '=', d.request_id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        site_id: w.site.id,
        workspace_id: w.workspaceId,
        event_type: 'checkout',
        account_id: 'acct_happy',
        email: 'a@b.test',
        ip_address: '198.51.100.1',
        user_agent: 'UA/1',
        payment_hash: 'pm_1',
        promo_code: 'P',
        order_amount: 42,
        risk_score: 42,
        classification: 'suspicious',
        action: 'review',
        ruleset_version: 'rs_fake',
      });
      const recorded = unpackDecision(row);
      expect(JSON.parse(recorded.response)).toEqual(d);
      expect(JSON.parse(recorded.features)).toEqual({ amount: 42 });
    });

    it('carries the challenge descriptor when the action is challenge', async () => {
      const res = await verify({ context: { event_type: 'signup', account_id: 'c', order_amount: 70 } });
      expect(res.json().data.action).toBe('challenge');
      expect(res.json().data.challenge).toMatchObject({ challenge_id: 'ch_fake', difficulty: 14, extra: 1 });
    });

    it('accepts a request with only a context, and every evidence object empty', async () => {
      expect((await verify({ context: { event_type: 'page_view', account_id: 'x' } })).statusCode).toBe(201);
      const res = await verify({
        context: { event_type: 'page_view', account_id: 'x' },
        fingerprint: {},
        behavior: { mouse: [[1, 2, 3]], clicks: 1 },
        environment: { pow: { challenge_id: 'c', nonce: 1 } },
        headers: { 'accept-language': 'en' },
        username: 'someone',
        token: 'tok',
      });
      expect(res.statusCode).toBe(201);
    });

    it('browser routes strip login_succeeded and observe IP and user agent themselves', async () => {
      engine.calls.length = 0;
      const res = await collect(
        {
          context: {
            event_type: 'login',
            account_id: 'b',
            login_succeeded: true,
            ip_address: '1.1.1.1',
            user_agent: 'forged',
          },
        },
        { 'user-agent': 'RealBrowser/1.0' },
      );
      expect(res.statusCode).toBe(201);
      const call = engine.calls[0]!;
      expect(call.surface).toBe('browser');
      expect(call.request.context.login_succeeded).toBeUndefined();
      expect(call.request.context.ip_address).toBe('127.0.0.1');
      expect(call.ip).toBe('127.0.0.1');
      expect(call.userAgent).toBe('RealBrowser/1.0');
      expect(call.request.context.user_agent).toBe('RealBrowser/1.0');
    });

    it('server routes take the trusted context as sent', async () => {
      engine.calls.length = 0;
      await verify({
        context: {
          event_type: 'login',
          account_id: 's',
          login_succeeded: true,
          ip_address: '1.1.1.1',
          user_agent: 'UA',
        },
      });
      const call = engine.calls[0]!;
      expect(call.surface).toBe('server');
      expect(call.request.context.login_succeeded).toBe(true);
      expect(call.ip).toBe('1.1.1.1');
      expect(call.userAgent).toBe('UA');
    });

    it('server routes take the user agent from the observed headers when the context has none', async () => {
      engine.calls.length = 0;
      const ua = 'curl/8.5.0';
      await verify({ context: { event_type: 'login', account_id: 'h' }, headers: { 'User-Agent': ua } });
      await verify({
        context: { event_type: 'login', account_id: 'h', user_agent: 'Context/1' },
        headers: { 'user-agent': ua },
      });
      await verify({ context: { event_type: 'login', account_id: 'h' }, headers: { accept: '*/*' } });
      expect(engine.calls.map((c) => c.userAgent)).toEqual([ua, 'Context/1', '']);
      const [row] = await t.ctx.database.db
        .selectFrom('decisions')
        .select('user_agent')
        .where('id', '=', engine.calls[0]!.decisionId)
        .execute();
      expect(row?.user_agent).toBe(ua);
    });
  });

  describe('validation (400 validation_failed with details)', () => {
    const cases: Array<[string, unknown, string]> = [
      [
        'unknown event type',
        { context: { event_type: 'purchase', account_id: 'a' } },
        'body.context.event_type',
      ],
      ['missing context', {}, 'body.context'],
      ['missing account id', { context: { event_type: 'login' } }, 'body.context.account_id'],
      ['empty account id', { context: { event_type: 'login', account_id: '' } }, 'body.context.account_id'],
      [
        'blank account id',
        { context: { event_type: 'login', account_id: '   ' } },
        'body.context.account_id',
      ],
      [
        'negative amount',
        { context: { event_type: 'checkout', account_id: 'a', order_amount: -1 } },
        'body.context.order_amount',
      ],
      [
        'string amount',
        { context: { event_type: 'checkout', account_id: 'a', order_amount: '5' } },
        'body.context.order_amount',
      ],
      ['empty idempotency key', { ...loginEvent(), idempotency_key: '' }, 'body.idempotency_key'],
      ['idempotency key with a space', { ...loginEvent(), idempotency_key: 'a b' }, 'body.idempotency_key'],
      [
        'idempotency key of 129 chars',
        { ...loginEvent(), idempotency_key: 'k'.repeat(129) },
        'body.idempotency_key',
      ],
      ['unknown top-level field', { ...loginEvent(), surprise: 1 }, 'body.surprise'],
      [
        'unknown context field',
        { context: { event_type: 'login', account_id: 'a', order_ammount: 5 } },
        'body.context.order_ammount',
      ],
      [
        'non-boolean login_succeeded',
        { context: { event_type: 'login', account_id: 'a', login_succeeded: 'yes' } },
        'body.context.login_succeeded',
      ],
      ['non-string header value', { ...loginEvent(), headers: { a: 1 } }, 'body.headers.a'],
      [
        'behavior over 2048 samples at depth',
        {
          ...loginEvent(),
          behavior: {
            mouse: mouseSamples(511),
            key_samples: [
              [1, 2],
              [3, 4],
            ],
          },
        },
        'body.behavior',
      ],
      ['array body', [], 'body'],
    ];
    it.each(cases)('%s', async (_label, payload, path) => {
      const res = await verify(payload);
      expect(res.statusCode).toBe(400);
      const error = res.json().error;
      expect(error.code).toBe('validation_failed');
      expect(error.details.map((d: { path: string }) => d.path)).toContain(path);
    });

    it('accepts exactly 2048 behaviour samples and 128-character keys', async () => {
      const res = await verify({
        ...loginEvent(),
        behavior: { mouse: mouseSamples(512), key_samples: [], scroll_samples: [] },
        idempotency_key: `${'k'.repeat(120)}_.:-AZ09`,
      });
      expect(res.statusCode).toBe(201);
    });

    it('does not record anything for a rejected request', async () => {
      const before = await t.ctx.database.db
        .selectFrom('decisions')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      await verify({ context: { event_type: 'nope', account_id: 'a' }, idempotency_key: 'never-recorded' });
      const after = await t.ctx.database.db
        .selectFrom('decisions')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
      const key = await t.ctx.database.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('key', '=', 'never-recorded')
        .execute();
      expect(key).toEqual([]);
    });
  });

  describe('limits and order of checks (SPEC §10)', () => {
    const huge = { ...loginEvent(), username: 'x'.repeat(300 * 1024) };

    it('413 for a body over 256 KiB, before media type, JSON and auth', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/antibot/verify',
        headers: { 'content-type': 'text/plain' },
        payload: 'x'.repeat(257 * 1024),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().error.code).toBe('payload_too_large');
      expect((await post('/api/antibot/collect', {}, huge)).statusCode).toBe(413);
    });

    it('415 before invalid_json before the site key', async () => {
      const media = await t.app.inject({
        method: 'POST',
        url: '/api/antibot/verify',
        headers: { 'content-type': 'text/plain' },
        payload: '{',
      });
      expect(media.json().error.code).toBe('unsupported_media_type');
      const json = await t.app.inject({
        method: 'POST',
        url: '/api/antibot/verify',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      });
      expect(json.json().error.code).toBe('invalid_json');
      const empty = await t.app.inject({
        method: 'POST',
        url: '/api/antibot/verify',
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error.code).toBe('invalid_json');
    });

    it('site key, then secret or origin, then validation', async () => {
      const invalid = { context: {} };
      expect((await post('/api/antibot/verify', {}, invalid)).json().error.code).toBe('missing_site_key');
      expect(
        (await post('/api/antibot/verify', { 'x-site-key': w.site.siteKey }, invalid)).json().error.code,
      ).toBe('missing_secret_key');
      expect(
        (
          await post(
            '/api/antibot/collect',
            { 'x-site-key': w.site.siteKey, origin: 'https://evil.test' },
            invalid,
          )
        ).json().error.code,
      ).toBe('origin_not_allowed');
      expect((await verify(invalid)).json().error.code).toBe('validation_failed');
    });
  });

  it('answers 500 internal_error when the engine fails, without leaking, and frees the idempotency key', async () => {
    let fail = true;
    const failing = await createScoringTestApp({
      services: {
        engine: fakeEngine({
          beforeScore: async () => {
            if (fail) throw new Error('engine exploded: secret detail');
          },
        }),
      },
    });
    const site = (await createTestWorkspace(failing.ctx)).site;
    const send = () =>
      failing.app.inject({
        method: 'POST',
        url: '/api/antibot/verify',
        headers: serverHeaders(site),
        payload: { ...loginEvent(), idempotency_key: 'retry-me' },
      });
    const res = await send();
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('internal_error');
    expect(res.body).not.toContain('secret detail');
    fail = false;
    expect((await send()).statusCode).toBe(201);
    await failing.close();
  });
});
