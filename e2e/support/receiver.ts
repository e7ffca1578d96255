import http from 'node:http';
import { freePort } from './server.ts';

/**
 * A webhook receiver on loopback that remembers what it got and answers `status` (200 unless a
 * test sets it, e.g. 500 to make deliveries fail).
 */
export async function startReceiver() {
  const received: Array<{ headers: http.IncomingHttpHeaders; body: string; status: number }> = [];
  const state = { status: 200 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const status = state.status;
      received.push({ headers: req.headers, body, status });
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(status === 200 ? '{"ok":true}' : '{"error":"receiver down"}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/hooks/warden`,
    received,
    state,
    /** What reached the receiver for one delivery id (the Service-Delivery header). */
    attemptsOf: (deliveryId: string) => received.filter((r) => r.headers['service-delivery'] === deliveryId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
