import type { LookupAddress, LookupOptions } from 'node:dns';
import { WEBHOOK_USER_AGENT } from '@warden/protocol';
import { Agent, request } from 'undici';
import { signatureHeader } from './signer.ts';

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
 * Connection pools keyed by (origin, checked address). Each agent can only ever connect to the
 * address it was made for, while TLS SNI and Host stay the URL's host name.
 */
export class PinnedAgents {
  private readonly agents = new Map<string, Agent>();
  constructor(private readonly maxAgents = 256) {}

  get(origin: string, address: string, family: 4 | 6): Agent {
    const key = `${origin}|${address}`;
    const existing = this.agents.get(key);
    if (existing) {
      this.agents.delete(key);
      this.agents.set(key, existing);
      return existing;
    }
    const agent = new Agent({
      connect: { lookup: pinnedLookup(address, family) },
      keepAliveTimeout: 4_000,
      connections: 128,
    });
    this.agents.set(key, agent);
    if (this.agents.size > this.maxAgents) {
      const [oldestKey, oldest] = this.agents.entries().next().value as [string, Agent];
      this.agents.delete(oldestKey);
      void oldest.close().catch(() => undefined);
    }
    return agent;
  }

  async close(): Promise<void> {
    const all = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(all.map((a) => a.close().catch(() => undefined)));
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
  agent: Agent;
  deliveryId: string;
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
  const signal = AbortSignal.timeout(req.timeoutMs);
  try {
    const res = await request(req.url, {
      method: 'POST',
      dispatcher: req.agent,
      signal,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'service-delivery': req.deliveryId,
        'service-signature': signatureHeader(req.secret, req.payload, req.nowMs ?? Date.now()),
      },
      body: req.payload,
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
  }
}
