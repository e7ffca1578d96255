import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import { createTestApp, type TestApp } from '../testing/context.ts';
import { installBodyParsing } from './body.ts';
import { installErrorHandling } from './errors.ts';

describe('http basics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks).toEqual({ database: 'ok', hotState: 'ok', storage: 'ok' });
  });

  it('answers 503 not_ready when the database is gone', async () => {
    const other = await createTestApp();
    await other.ctx.database.close();
    const res = await other.app.inject('/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('not_ready');
    await other.app.close();
  });

  it('answers routing errors in the error envelope', async () => {
    // An id longer than any real one: 401 first like any id, then 404 with a token.
    expect((await t.app.inject(`/api/sites/${'x'.repeat(200)}`)).json().error.code).toBe('unauthorized');
    const tooLong = await t.app.inject(`/api/sites/${'x'.repeat(600)}`);
    expect(tooLong.statusCode).toBe(404);
    expect(tooLong.json()).toMatchObject({ success: false, error: { code: 'not_found' } });
    const badEncoding = await t.app.inject('/api/sites/%E0%A4%A');
    expect(badEncoding.statusCode).toBe(400);
    expect(badEncoding.json()).toMatchObject({ success: false, error: { code: 'validation_failed' } });
  });

  it('answers 401 on management routes before reading the body (SPEC §10: 401 first)', async () => {
    const patch = (headers: Record<string, string>, payload: string) =>
      t.app.inject({ method: 'PATCH', url: '/api/sites/site_x', headers, payload });
    const answers = [
      await patch({ 'content-type': 'application/json' }, '{bad'),
      await patch({ 'content-type': 'text/plain' }, 'x'),
      await patch({ 'content-type': 'application/json' }, JSON.stringify({ pad: 'x'.repeat(200_000) })),
    ];
    expect(answers.map((r) => [r.statusCode, r.json().error.code])).toEqual([
      [401, 'unauthorized'],
      [401, 'unauthorized'],
      [401, 'unauthorized'],
    ]);
  });

  it('exports Prometheus metrics', async () => {
    await t.app.inject('/healthz');
    const res = await t.app.inject('/metrics');
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('warden_http_requests_total');
  });

  it('serves an OpenAPI 3.1 document and human docs', async () => {
    const res = await t.app.inject('/api/openapi.json');
    expect(res.json().openapi).toBe('3.1.0');
    const docs = await t.app.inject('/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
  });

  it('answers a path that is not valid percent-encoding with validation_failed and its details', async () => {
    const res = await t.app.inject('/api/sites/%E0%A4%A');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'url', message: 'is not valid percent-encoding' }],
    });
  });

  it('answers unknown routes with the error envelope and a request id', async () => {
    const res = await t.app.inject('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'not_found' } });
    expect(res.json().timestamp).toMatch(/^\d{4}-/);
    expect(res.headers['x-request-id']).toBeTruthy();
  });
});

describe('body parsing and errors', () => {
  const app = Fastify();
  installBodyParsing(app);
  installErrorHandling(app);
  app.post('/echo', { bodyLimit: 1024 }, async (req) => ({ got: req.body }));
  app.post('/takes-body', { schema: { body: { type: 'object' } } }, async (req) => ({ got: req.body }));
  app.post('/boom', async () => {
    throw new Error('database password is hunter2');
  });
  app.post('/limited', async () => {
    throw new ApiError('rate_limited', 'Slow down.', undefined, { 'retry-after': '3' });
  });

  it('parses JSON', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    expect(res.json()).toEqual({ got: { a: 1 } });
  });

  it('answers 400 invalid_json for malformed JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_json');
  });

  it('answers invalid_json for an empty JSON body where the route reads a body, and no body elsewhere', async () => {
    for (const payload of ['', '  \n']) {
      const headers = { 'content-type': 'application/json' };
      const reads = await app.inject({ method: 'POST', url: '/takes-body', headers, payload });
      expect(reads.statusCode).toBe(400);
      expect(reads.json().error.code).toBe('invalid_json');
      const none = await app.inject({ method: 'POST', url: '/echo', headers, payload });
      expect(none.statusCode).toBe(200);
      expect(none.json()).toEqual({});
    }
  });

  it('answers 415 for other media types', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'hi',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('unsupported_media_type');
  });

  it('answers 415 for other JSON-based media types, and takes application/json with parameters', async () => {
    for (const type of ['application/merge-patch+json', 'application/vnd.api+json', 'text/json']) {
      const res = await app.inject({
        method: 'POST',
        url: '/echo',
        headers: { 'content-type': type },
        payload: '{"a":1}',
      });
      expect(res.statusCode, type).toBe(415);
    }
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      payload: '{"a":1}',
    });
    expect(res.json()).toEqual({ got: { a: 1 } });
  });

  it('answers 413 before 415 for an oversized body', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'x'.repeat(2000),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('answers 413 for oversized JSON', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { a: 'x'.repeat(2000) } });
    expect(res.statusCode).toBe(413);
  });

  it('never leaks internal messages in 500s', async () => {
    const res = await app.inject({ method: 'POST', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('internal_error');
    expect(res.body).not.toContain('hunter2');
  });

  it('sends error headers such as Retry-After', async () => {
    const res = await app.inject({ method: 'POST', url: '/limited' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('3');
  });
});
