import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The benchmark's webhook receiver, in its own process (a customer's receiver is never in Warden's
 * process): answers 200 at once, and reports to the parent each delivery's lag from the decision's
 * `createdAt` and the receipt time, in batches over IPC.
 */
let lags: number[] = [];
let times: number[] = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const now = Date.now();
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { createdAt: string } };
    lags.push(now - Date.parse(body.data.createdAt));
    times.push(now);
    res.writeHead(200).end();
  });
});
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'ready', port: (server.address() as AddressInfo).port });
});
const flush = setInterval(() => {
  if (lags.length === 0) return;
  process.send?.({ type: 'received', lags, times });
  lags = [];
  times = [];
}, 50);
process.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  clearInterval(flush);
  if (lags.length > 0) process.send?.({ type: 'received', lags, times });
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
