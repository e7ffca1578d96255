import type { LookupAddress, LookupOptions } from 'node:dns';
import { WEBHOOK_USER_AGENT } from '@warden/protocol';
import { webhookSignatureHeader } from '@warden/protocol/webhook-signature';
import { Pool, request } from 'undici';
import type { RequestDeadlines } from './request-deadlines.ts';

export const MAX_STORED_RESPONSE_BYTES = 2048;

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** First 2 KiB of the response body. */
  responseBody: string | null;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A DNS lookup that always answers the one address the SSRF check approved. */
function pinnedLookup(address: string, family: 4 | 6) {
  return (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * One connection pool per (origin, checked address), kept alive between deliveries. Each pool can
 * only ever connect to the address it was made for, while TLS SNI and Host stay the URL's host
 * name. No pipelining: a POST is not idempotent, and undici never pipelines one behind another
 * request anyway. The connect timeout is the attempt timeout.
 */
export class PinnedPools {
  private readonly pools = new Map<string, Pool>();
  constructor(
    private readonly connectTimeoutMs = 10_000,
    private readonly maxPools = 256,
  ) {}

  get(origin: string, address: string, family: 4 | 6): Pool {
    const key = `${origin}|${address}`;
    const existing = this.pools.get(key);
    if (existing) {
      this.pools.delete(key);
      this.pools.set(key, existing);
      return existing;
    }
    const pool = new Pool(origin, {
      connect: { lookup: pinnedLookup(address, family), timeout: this.connectTimeoutMs },
      keepAliveTimeout: 4_000,
      connections: 128,
    });
    this.pools.set(key, pool);
    if (this.pools.size > this.maxPools) {
      const [oldestKey, oldest] = this.pools.entries().next().value as [string, Pool];
      this.pools.delete(oldestKey);
      void oldest.close().catch(() => undefined);
    }
    return pool;
  }

  async close(): Promise<void> {
    const all = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(all.map((p) => p.close().catch(() => undefined)));
  }
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_STORED_RESPONSE_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_STORED_RESPONSE_BYTES).toString('utf8');
}

export interface SendRequest {
  url: URL;
  pool: Pool;
  /** The dispatcher's deadlines: the attempt is aborted `timeoutMs` after it starts. */
  deadlines: RequestDeadlines;
  deliveryId: string;
  /** The stored payload: its bytes are made once, signed and sent as they are. */
  payload: string;
  secret: string;
  timeoutMs: number;
  nowMs?: number;
}

function describeError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  if (
    e.name === 'TimeoutError' ||
    e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e.code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return `timeout: no complete answer within ${timeoutMs} ms`;
  }
  const code = e.cause?.code ?? e.code;
  return code ? `network error: ${code}` : `network error: ${e.message ?? 'unknown'}`;
}

/** One attempt: the stored bytes, a fresh signature, no redirects, a hard timeout. */
export async function sendAttempt(req: SendRequest): Promise<AttemptOutcome> {
  const body = Buffer.from(req.payload, 'utf8');
  const signal = req.deadlines.start();
  try {
    const res = await request(req.url, {
      method: 'POST',
      dispatcher: req.pool,
      signal,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
      headers: [
        'content-type',
        'application/json',
        'user-agent',
        WEBHOOK_USER_AGENT,
        'service-delivery',
        req.deliveryId,
        'service-signature',
        // Signed fresh for each attempt: the timestamp is the attempt's.
        webhookSignatureHeader(req.secret, body, req.nowMs ?? Date.now()),
      ],
      body,
    });
    let responseBody: string | null = null;
    try {
      responseBody = await readLimited(res.body);
    } catch {
      // The status is what counts; a broken body after it is kept as "no body".
    }
    const status = res.statusCode;
    if (status >= 200 && status < 300) return { ok: true, statusCode: status, error: null, responseBody };
    const error =
      status >= 300 && status < 400
        ? `redirect ${status} not followed${res.headers.location ? ` (to ${String(res.headers.location)})` : ''}`
        : `receiver answered HTTP ${status}`;
    return { ok: false, statusCode: status, error, responseBody };
  } catch (err) {
    return { ok: false, statusCode: null, error: describeError(err, req.timeoutMs), responseBody: null };
  } finally {
    req.deadlines.end(signal);
  }
}
