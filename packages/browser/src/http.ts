/** An error answered by the service (`{success: false, error: {code, message}}`) or the network. */
export class WardenError extends Error {
  override readonly name = 'WardenError';
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: { code?: string; message?: string };
}

/** POSTs JSON with the site key; retries once on a network error or 5xx (bodies carry idempotency keys). */
export async function postJson<T>(url: string, siteKey: string, body: unknown, retries = 1): Promise<T> {
  let last: WardenError | undefined;
  for (let attempt = 0; attempt <= retries; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        mode: 'cors',
        credentials: 'omit',
        keepalive: false,
        headers: { 'Content-Type': 'application/json', 'X-Site-Key': siteKey },
        body: JSON.stringify(body),
      });
    } catch (err) {
      last = new WardenError('network_error', err instanceof Error ? err.message : 'Network error', 0);
      continue;
    }
    const payload = (await res.json().catch(() => undefined)) as Envelope<T> | undefined;
    if (res.ok && payload?.success && payload.data !== undefined) return payload.data;
    last = new WardenError(
      payload?.error?.code ?? 'http_error',
      payload?.error?.message ?? `HTTP ${res.status}`,
      res.status,
    );
    if (res.status < 500) break;
  }
  throw last ?? new WardenError('network_error', 'Request failed', 0);
}
