/** autocannon load of POST /api/antibot/verify with a new body per request. */
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** Seconds, or a fixed number of requests with `amount`. */
  seconds?: number;
  amount?: number;
  /** Requests per second over all connections (autocannon's overallRate); unbounded without. */
  rate?: number;
  /** The body of the request numbered n (numbers are never reused within a run). */
  body: (n: number) => string;
  next: () => number;
}

export function load(options: LoadOptions): Promise<autocannon.Result> {
  return autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.seconds ?? 10 }),
    ...(options.rate !== undefined ? { overallRate: options.rate } : {}),
    requests: [
      {
        method: 'POST',
        path: '/api/antibot/verify',
        headers: { 'content-type': 'application/json', ...options.headers },
        setupRequest: (request) => ({ ...request, body: options.body(options.next()) }),
      },
    ],
  });
}
