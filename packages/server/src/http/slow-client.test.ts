import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../testing/accounts.ts';
import { createTestApp, type TestApp } from '../testing/context.ts';
import { BROWSER_ORIGIN } from '../testing/scoring-app.ts';

/**
 * Slow and broken clients over raw sockets, with short timeouts: each is answered in the SPEC §1
 * envelope and its connection closed (a test that hangs instead fails on vitest's timeout).
 */
describe('slow and malformed clients', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        WARDEN_REQUEST_TIMEOUT_MS: '600',
        WARDEN_HEADERS_TIMEOUT_MS: '300',
        WARDEN_KEEP_ALIVE_TIMEOUT_MS: '300',
      },
    });
    ws = await createTestWorkspace(t.ctx, { origins: [BROWSER_ORIGIN] });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  /** Connect, write `chunks` (then `drip` one byte every 50 ms), and read until the server closes. */
  function exchange(chunks: string[], drip = false): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      let timer: NodeJS.Timeout | undefined;
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => {
        received += d;
      });
      socket.on('error', reject);
      socket.on('close', () => {
        clearInterval(timer);
        resolve(received);
      });
      socket.on('connect', () => {
        for (const c of chunks) socket.write(c);
        if (drip) timer = setInterval(() => socket.writable && socket.write(' '), 50);
      });
    });
  }

  function parse(raw: string): { status: number; headers: string; body: Record<string, unknown> } {
    const [head, body] = raw.split('\r\n\r\n', 2) as [string, string];
    return { status: Number(head.split(' ')[1]), headers: head, body: JSON.parse(body) };
  }

  const collectHead = (length: number) =>
    'POST /api/antibot/collect HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
    `X-Site-Key: ${ws.site.siteKey}\r\nOrigin: ${BROWSER_ORIGIN}\r\nContent-Length: ${length}\r\n\r\n`;

  it('answers 408 in the envelope when the headers never finish', async () => {
    const res = parse(await exchange(['POST /api/antibot/collect HTTP/1.1\r\nHost: 127.0.0.1\r\n']));
    expect(res.status).toBe(408);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(res.body).toMatchObject({ success: false, error: { code: 'request_timeout' } });
  });

  it('cuts off a body that never finishes, even one that keeps trickling in', async () => {
    const stalled = parse(await exchange([collectHead(200), '{"context":']));
    expect(stalled.status).toBe(408);
    expect(stalled.body).toMatchObject({ success: false, error: { code: 'request_timeout' } });
    // 1 byte every 50 ms would need 10 s for 200 bytes: the request timeout ends it first.
    const dripping = parse(await exchange([collectHead(200), '{"context":'], true));
    expect(dripping.status).toBe(408);
  });

  it('answers 431 in the envelope for headers over 16 KiB', async () => {
    const res = parse(
      await exchange([`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`]),
    );
    expect(res.status).toBe(431);
    expect(res.body).toMatchObject({ success: false, error: { code: 'headers_too_large' } });
  });

  it('answers 400 in the envelope for a malformed request', async () => {
    for (const garbage of ['HELLO\r\n\r\n', 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n']) {
      const res = parse(await exchange([garbage]));
      expect(res.status, garbage).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: 'bad_request' } });
    }
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const raw = await exchange(['GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n']);
    expect(raw.startsWith('HTTP/1.1 200')).toBe(true);
    expect(raw.match(/HTTP\/1\.1/g)).toHaveLength(1);
  });

  it('still serves a request that arrives in time', async () => {
    const body = JSON.stringify({ context: { event_type: 'login', account_id: 'acct_in_time' } });
    const res = parse(
      await exchange([
        collectHead(Buffer.byteLength(body)).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'),
        body,
      ]),
    );
    expect(res.status).toBe(201);
  });
});
