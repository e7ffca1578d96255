import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Warden } from './client.ts';
import { WardenBatchError, WardenError } from './errors.ts';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

type Script = (seen: Seen, index: number, res: http.ServerResponse) => void;

let server: http.Server | null = null;

async function fakeWarden(script: Script): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    req.on('end', () => {
      const entry = { url: req.url ?? '', headers: req.headers, body: JSON.parse(raw || '{}') };
      seen.push(entry);
      script(entry, seen.length - 1, res);
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen };
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

const json = (
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
const okBody = (data: unknown) => ({ success: true, data, timestamp: new Date().toISOString() });
const decision = { request_id: 'req_1', action: 'allow', risk_score: 3 };

describe('Warden client', () => {
  it('treats a timeout or a reset while the answer body is read as no answer: a WardenError, retried', async () => {
    const { baseUrl, seen } = await fakeWarden((_s, i, res) => {
      if (i === 2) return json(res, 201, okBody(decision));
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"success":');
      if (i === 1) setTimeout(() => res.destroy(), 20); // reset mid-body; the first one stalls
    });
    const warden = new Warden({ baseUrl, siteKey: 's', secretKey: 'k', timeoutMs: 300, retryBaseMs: 1 });
    await expect(warden.verify({ context: { event_type: 'login', account_id: 'a' } })).resolves.toEqual(
      decision,
    );
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.body.idempotency_key)).size).toBe(1);

    const once = new Warden({ baseUrl, siteKey: 's', secretKey: 'k', timeoutMs: 300, maxRetries: 0 });
    seen.length = 0;
    const err = await once.verify({ context: { event_type: 'login', account_id: 'a' } }).catch((e) => e);
    expect(err).toBeInstanceOf(WardenError);
    expect(err).toMatchObject({ status: 0, code: 'timeout' });
  });

  it('sends keys, generates an idempotency key and reuses it on every retry (5xx, 429 + Retry-After)', async () => {
    const { baseUrl, seen } = await fakeWarden((_s, i, res) => {
      if (i === 0) json(res, 503, { success: false, error: { code: 'internal_error', message: 'x' } });
      else if (i === 1)
        json(
          res,
          429,
          { success: false, error: { code: 'rate_limited', message: 'slow' } },
          { 'retry-after': '0' },
        );
      else if (i === 2) res.destroy();
      else json(res, 201, okBody(decision));
    });
    const warden = new Warden({ baseUrl, siteKey: 'pk', secretKey: 'sk', retryBaseMs: 1 });
    const result = await warden.verify({ context: { event_type: 'login', account_id: 'a1' } });
    expect(result).toEqual(decision);
    expect(seen).toHaveLength(4);
    expect(seen[0]!.url).toBe('/api/antibot/verify');
    expect(seen[0]!.headers['x-site-key']).toBe('pk');
    expect(seen[0]!.headers['x-secret-key']).toBe('sk');
    const keys = new Set(seen.map((s) => s.body.idempotency_key));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[A-Za-z0-9_.:-]{1,128}$/);
  });

  it('keeps a caller idempotency key and does not retry 4xx', async () => {
    const { baseUrl, seen } = await fakeWarden((_s, _i, res) =>
      json(res, 400, {
        success: false,
        error: {
          code: 'validation_failed',
          message: 'bad',
          details: [{ path: 'body.context', message: 'x' }],
        },
      }),
    );
    const warden = new Warden({ baseUrl, siteKey: 'pk', secretKey: 'sk', retryBaseMs: 1 });
    const err = await warden
      .verify({ context: { event_type: 'login', account_id: 'a' }, idempotency_key: 'mine' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WardenError);
    expect(err).toMatchObject({
      status: 400,
      code: 'validation_failed',
      details: [{ path: 'body.context' }],
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.body.idempotency_key).toBe('mine');
  });

  it('gives up after maxRetries with the last error', async () => {
    const { baseUrl, seen } = await fakeWarden((_s, _i, res) => json(res, 502, {}));
    const warden = new Warden({ baseUrl, siteKey: 'pk', secretKey: 'sk', retryBaseMs: 1, maxRetries: 2 });
    await expect(warden.challenge()).rejects.toMatchObject({ status: 502, code: 'http_502' });
    expect(seen).toHaveLength(3);
  });

  it('surfaces per-item batch errors', async () => {
    const { baseUrl, seen } = await fakeWarden((_s, _i, res) =>
      json(
        res,
        201,
        okBody({
          results: [
            { index: 0, success: true, data: decision },
            { index: 1, success: false, error: { code: 'validation_failed', message: 'no context' } },
          ],
          succeeded: 1,
          failed: 1,
        }),
      ),
    );
    const warden = new Warden({ baseUrl, siteKey: 'pk', secretKey: 'sk' });
    const events = [
      { context: { event_type: 'signup' as const, account_id: 'a' } },
      { context: { event_type: 'signup' as const, account_id: 'b' } },
    ];
    const result = await warden.verifyBatch(events);
    expect(result.failed).toBe(1);
    const keys = (seen[0]!.body.events as Array<{ idempotency_key: string }>).map((e) => e.idempotency_key);
    expect(new Set(keys).size).toBe(2);
    const err = await warden.verifyBatch(events, { throwOnItemError: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WardenBatchError);
    expect((err as WardenBatchError).failures[0]!.index).toBe(1);
  });

  it('does not retry verifyChallenge once the proof may have reached the server', async () => {
    // The answer is lost after the server saw the proof: a retry would read already_used.
    const lost = await fakeWarden((_s, _i, res) => res.destroy());
    const warden = new Warden({ baseUrl: lost.baseUrl, siteKey: 'pk', secretKey: 'sk', retryBaseMs: 1 });
    await expect(warden.verifyChallenge({ challenge_id: 'c', nonce: 5 })).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
    });
    expect(lost.seen).toHaveLength(1);
    server?.closeAllConnections();
    await new Promise<void>((r) => server!.close(() => r()));
    // Nothing listening: refused before anything was sent, so it is tried again (then given up).
    const refused = new Warden({
      baseUrl: lost.baseUrl,
      siteKey: 'pk',
      secretKey: 'sk',
      retryBaseMs: 1,
      maxRetries: 1,
    });
    await expect(refused.verifyChallenge({ challenge_id: 'c', nonce: 5 })).rejects.toMatchObject({
      code: 'connection_refused',
    });
    // Rate limited: the server did not look at it, so the same proof is sent again.
    const limited = await fakeWarden((_s, i, res) =>
      i === 0
        ? json(
            res,
            429,
            { success: false, error: { code: 'rate_limited', message: 'x' } },
            { 'retry-after': '0' },
          )
        : json(res, 200, okBody({ valid: true, challenge_id: 'c' })),
    );
    const again = new Warden({ baseUrl: limited.baseUrl, siteKey: 'pk', secretKey: 'sk', retryBaseMs: 1 });
    expect(await again.verifyChallenge({ challenge_id: 'c', nonce: 5 })).toMatchObject({ valid: true });
    expect(limited.seen).toHaveLength(2);
  });

  it('calls the fingerprint and challenge routes', async () => {
    const { baseUrl, seen } = await fakeWarden((s, _i, res) => json(res, 201, okBody({ path: s.url })));
    const warden = new Warden({ baseUrl, siteKey: 'pk', secretKey: 'sk' });
    await warden.registerFingerprint({ fingerprint: { a: 1 } });
    await warden.challenge({ difficulty: 'low' });
    await warden.verifyChallenge({ challenge_id: 'c', nonce: 5 });
    expect(seen.map((s) => s.url)).toEqual([
      '/api/antibot/verify/fingerprint',
      '/api/antibot/verify/challenge',
      '/api/antibot/verify/challenge/verify',
    ]);
  });
});
