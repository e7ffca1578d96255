import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createLogger, logFormat } from '../main.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/accounts.ts';
import { createTestApp, createTestContext, type TestApp, testAppOf } from '../testing/context.ts';
import { browserHeaders, loginEvent, serverHeaders } from '../testing/scoring-app.ts';
import { buildApp } from './app.ts';

/** The sum of the samples `name{…}` in Prometheus text that carry `labels` (in any order); 0 when none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((p) => [p[1], p[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

describe('/metrics measures the service', () => {
  let t: TestApp;
  let w: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp({ env: { WARDEN_POW_FLOOR: '1' } });
    w = await createTestWorkspace(t.ctx, { plan: 'pro' });
    for (const mode of ['live', 'shadow']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/rules?siteId=${w.site.id}`,
        headers: w.owner.headers,
        payload: {
          name: `logins_${mode}`,
          eventTypes: ['login'],
          expression: 'event.type == "login"',
          score: 5,
          mode,
        },
      });
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(() => t.close());

  const post = (url: string, headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url, headers, payload });

  it('counts requests per route template, decisions, engine time, rule hits and challenges', async () => {
    const event = { ...loginEvent('acct_metrics'), idempotency_key: 'metrics-1' };
    expect((await post('/api/antibot/verify', serverHeaders(w.site), event)).statusCode).toBe(201);
    expect((await post('/api/antibot/verify', serverHeaders(w.site), event)).statusCode).toBe(200); // replay
    expect(
      (await post('/api/antibot/collect', browserHeaders(w.site.siteKey), loginEvent('acct_m2'))).statusCode,
    ).toBe(201);
    const issued = await post('/api/antibot/verify/challenge', serverHeaders(w.site), { difficulty: 1 });
    const ch = issued.json().data as {
      challenge_id: string;
      salt: string;
      challenge: string;
      maxnumber: number;
    };
    let n = 0;
    while (createHash('sha256').update(`${ch.salt}${n}`).digest('hex') !== ch.challenge) n++;
    const check = (nonce: number) =>
      post('/api/antibot/verify/challenge/verify', serverHeaders(w.site), {
        challenge_id: ch.challenge_id,
        nonce,
      });
    expect((await check(n)).json().data.valid).toBe(true);
    expect((await check(n)).json().data.reason).toBe('already_used');
    await t.app.inject(`/api/decisions/${'x'.repeat(10)}?siteId=${w.site.id}`);
    await t.app.inject('/no/such/path?secret=1');

    const text = (await t.app.inject('/metrics')).body;
    const http = (method: string, route: string, status: string) =>
      sample(text, 'warden_http_requests_total', { method, route, status });
    expect(http('POST', '/api/antibot/verify', '201')).toBe(1);
    expect(http('POST', '/api/antibot/verify', '200')).toBe(1);
    expect(http('POST', '/api/antibot/collect', '201')).toBe(1);
    expect(http('POST', '/api/rules', '201')).toBe(2);
    expect(http('GET', '/api/decisions/:id', '401')).toBe(1);
    expect(http('GET', 'unmatched', '404')).toBe(1);
    expect(text).not.toContain('/no/such/path');
    expect(text).not.toContain('x'.repeat(10));
    expect(
      sample(text, 'warden_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/antibot/verify',
      }),
    ).toBe(2);

    // Two new decisions (the replay is none), each with one live and one shadow rule match.
    expect(sample(text, 'warden_decisions_total', { surface: 'server', event_type: 'login' })).toBe(1);
    expect(sample(text, 'warden_decisions_total', { surface: 'browser', event_type: 'login' })).toBe(1);
    expect(text).toMatch(
      /warden_decisions_total\{[^}]*classification="(human|suspicious|bot)"[^}]*action="\w+"/,
    );
    expect(sample(text, 'warden_engine_duration_seconds_count', { surface: 'server' })).toBe(1);
    expect(sample(text, 'warden_engine_duration_seconds_count', { surface: 'browser' })).toBe(1);
    expect(sample(text, 'warden_rule_hits_total', { mode: 'live' })).toBe(2);
    expect(sample(text, 'warden_rule_hits_total', { mode: 'shadow' })).toBe(2);
    // The route's challenge, and one with each decision whose action is `challenge`.
    const challengeActions = sample(text, 'warden_decisions_total', { action: 'challenge' });
    expect(sample(text, 'warden_challenges_total', { outcome: 'issued' })).toBe(1 + challengeActions);
    expect(sample(text, 'warden_challenges_total', { outcome: 'solved' })).toBe(1);
    expect(sample(text, 'warden_challenges_total', { outcome: 'already_used' })).toBe(1);

    // The timeline of the two recorded decisions' requests (not the replay's), stage by stage.
    for (const stage of ['validated', 'observed', 'decided', 'queued', 'committed', 'answered'])
      expect(sample(text, 'warden_decision_stage_seconds_count', { stage }), stage).toBe(2);
    expect(sample(text, 'warden_decision_stage_seconds_bucket', { stage: 'committed', le: '+Inf' })).toBe(2);
    // Their group commits (one each: the requests came one after another).
    expect(sample(text, 'warden_commit_batch_size_count')).toBe(2);
    expect(sample(text, 'warden_commit_batch_size_sum')).toBe(2);
    expect(sample(text, 'warden_commit_wait_seconds_count')).toBe(2);
    expect(sample(text, 'warden_commit_seconds_count')).toBe(2);
  });
});

describe('/metrics behind a token or on its own port', () => {
  const token = 'metrics-token-0123456789';

  it('answers only the bearer token when WARDEN_METRICS_TOKEN is set', async () => {
    const t = await createTestApp({ env: { WARDEN_METRICS_TOKEN: token } });
    try {
      const none = await t.app.inject('/metrics');
      expect(none.statusCode).toBe(401);
      expect(none.json().error.code).toBe('unauthorized');
      expect(
        (await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode,
      ).toBe(401);
      const ok = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('warden_http_requests_total');
    } finally {
      await t.close();
    }
  });

  it('moves /metrics to WARDEN_METRICS_PORT (and counts the main port requests there)', async () => {
    const ctx = await createTestContext({ env: { WARDEN_METRICS_PORT: '0', WARDEN_HOST: '127.0.0.1' } });
    const t = testAppOf(await buildApp(ctx), ctx);
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const main = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      expect((await fetch(`${main}/healthz`)).status).toBe(200);
      expect((await fetch(`${main}/metrics`)).status).toBe(404);
      const port = (t.app.metricsServer as Server).address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port.port}/metrics`);
      expect(res.status).toBe(200);
      expect(
        sample(await res.text(), 'warden_http_requests_total', { route: '/healthz', status: '200' }),
      ).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('refuses a short token and a metrics port equal to the main port', () => {
    expect(() => loadConfig({ WARDEN_METRICS_TOKEN: 'short' })).toThrow(/WARDEN_METRICS_TOKEN/);
    expect(() => loadConfig({ WARDEN_PORT: '9000', WARDEN_METRICS_PORT: '9000' })).toThrow(
      /WARDEN_METRICS_PORT/,
    );
  });
});

describe('logs', () => {
  it('writes exactly one access line per request at info, with no secret or header in the log', async () => {
    const lines: Array<Record<string, unknown>> = [];
    let raw = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        raw += String(chunk);
        for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
        done();
      },
    });
    const ctx = await createTestContext();
    ctx.logger = createLogger(loadConfig({ WARDEN_LOG_LEVEL: 'info' }), stream);
    const t = testAppOf(await buildApp(ctx), ctx);
    try {
      await t.app.ready();
      const w = await createTestWorkspace(ctx);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/antibot/verify?utm=private-query',
        headers: { ...serverHeaders(w.site), cookie: 'session=cookie-secret' },
        payload: loginEvent('acct_log'),
      });
      expect(res.statusCode).toBe(201);
      const requestId = res.headers['x-request-id'];
      const ofRequest = lines.filter((l) => l.reqId === requestId);
      expect(ofRequest).toHaveLength(1);
      expect(ofRequest[0]).toMatchObject({
        level: 30,
        msg: 'request',
        method: 'POST',
        path: '/api/antibot/verify',
        route: '/api/antibot/verify',
        status: 201,
        durationMs: expect.any(Number),
        client: '127.0.0.1',
      });
      for (const secret of [w.site.secretKey, w.site.siteKey, 'cookie-secret', 'private-query', 'acct_log'])
        expect(raw).not.toContain(secret);
    } finally {
      await t.close();
    }
  });

  it('name the client behind a trusted proxy, and the path with its ids', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
        done();
      },
    });
    const ctx = await createTestContext({ env: { WARDEN_TRUSTED_PROXIES: '10.0.0.0/8' } });
    ctx.logger = createLogger(loadConfig({ WARDEN_LOG_LEVEL: 'info' }), stream);
    const t = testAppOf(await buildApp(ctx), ctx);
    try {
      const via = (remoteAddress: string) =>
        t.app.inject({
          url: '/dashboard/decisions/dec_123?token=private',
          remoteAddress,
          headers: { 'x-forwarded-for': '198.51.100.23' },
        });
      const trusted = await via('10.1.2.3');
      const untrusted = await via('192.0.2.9');
      const lineOf = (id: unknown) => lines.find((l) => l.reqId === id && l.msg === 'request');
      expect(lineOf(trusted.headers['x-request-id'])).toMatchObject({
        path: '/dashboard/decisions/dec_123',
        route: '/dashboard/*',
        client: '198.51.100.23',
      });
      expect(lineOf(untrusted.headers['x-request-id'])).toMatchObject({ client: '192.0.2.9' });
      expect(JSON.stringify(lines)).not.toContain('private');
    } finally {
      await t.close();
    }
  });

  it('are pretty only in a terminal, and never in a test run', () => {
    expect(logFormat(true, {})).toBe('pretty');
    expect(logFormat(false, {})).toBe('json');
    expect(logFormat(true, { VITEST: 'true' })).toBe('json');
    expect(logFormat(true, { NODE_ENV: 'test' })).toBe('json');
  });
});
