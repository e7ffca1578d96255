/**
 * An open-loop load of POST /api/antibot/verify: request n is sent at `start + n / rate` whatever
 * the answers do (a slow answer never delays the next request, as with a shop's many independent
 * shoppers), and its latency is counted from that scheduled time, not from when it was sent, so a
 * stall shows in every request it held up (no coordinated omission). Requests go over a pool of
 * keep-alive undici connections; when every connection is busy the pool queues, and the queueing
 * counts.
 */
import * as hdr from 'hdr-histogram-js';
import { Pool } from 'undici';

export interface OpenLoopOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** Requests per second, on a fixed schedule. */
  rate: number;
  seconds: number;
  /** The body of the request numbered n (numbers are never reused within a run). */
  body: (n: number) => string;
  next: () => number;
}

export interface OpenLoopResult {
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  /** Latency from the scheduled time, ms. */
  latency: { p50: number; p90: number; p99: number; p999: number; max: number };
}

/** How often the schedule is checked; requests that fell due meanwhile are sent together. */
const TICK_MS = 1;

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const pool = new Pool(options.url, { connections: options.connections, pipelining: 1 });
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000 });
  const headers = { 'content-type': 'application/json', ...options.headers };
  const total = Math.max(1, Math.round(options.rate * options.seconds));
  const intervalMs = 1000 / options.rate;
  let sent = 0;
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  const inFlight = new Set<Promise<void>>();
  const send = (scheduledAt: number) => {
    const body = options.body(options.next());
    const request = pool
      .request({ method: 'POST', path: '/api/antibot/verify', headers, body })
      .then(async (response) => {
        await response.body.dump();
        if (response.statusCode >= 200 && response.statusCode < 300) ok++;
        else non2xx++;
      })
      .catch(() => {
        errors++;
      })
      .finally(() => {
        histogram.recordValue(Math.round((performance.now() - scheduledAt) * 1000));
        inFlight.delete(request);
      });
    inFlight.add(request);
  };
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      while (sent < total && start + sent * intervalMs <= now) send(start + sent++ * intervalMs);
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, TICK_MS);
  });
  while (inFlight.size > 0) await Promise.all([...inFlight]);
  await pool.close();
  const at = (p: number) => histogram.getValueAtPercentile(p) / 1000;
  const result: OpenLoopResult = {
    sent,
    ok,
    non2xx,
    errors,
    latency: { p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), max: histogram.maxValue / 1000 },
  };
  histogram.destroy();
  return result;
}
