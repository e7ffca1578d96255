export interface WardenOptions {
  /** e.g. https://warden.example.com (no trailing /api). */
  baseUrl: string;
  siteKey: string;
  secretKey: string;
  /** Per request attempt. Default 10 s. */
  timeoutMs?: number;
  /**
   * Retries after the first attempt on network errors, timeouts, 5xx, 429 and 409 in-progress
   * (verifyChallenge: only 429 and refused connections). Default 3.
   */
  maxRetries?: number;
  /** First retry delay; doubles each time (full jitter). Default 250 ms. */
  retryBaseMs?: number;
  /** Longest wait honoured from Retry-After. Default 30 s. */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
}

/**
 * Checks `new Warden(options)` up front, so a missing or mistyped option fails at construction
 * with a TypeError that names it, instead of a confusing error on the first call.
 */
export function assertWardenOptions(options: unknown): asserts options is WardenOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      'new Warden(options): options must be an object with baseUrl, siteKey and secretKey.',
    );
  }
  const o = options as Record<string, unknown>;
  requireString(o, 'baseUrl', 'the URL of your Warden server, e.g. https://warden.example.com');
  let url: URL;
  try {
    url = new URL(o.baseUrl as string);
  } catch {
    throw new TypeError(`new Warden(options): options.baseUrl is not a URL: ${JSON.stringify(o.baseUrl)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`new Warden(options): options.baseUrl must be http(s), got ${url.protocol}.`);
  }
  requireString(o, 'siteKey', 'the public site key (pk_…) of your site');
  requireString(o, 'secretKey', 'the secret key (sk_…) of your site; keep it on your server');
  for (const name of ['timeoutMs', 'maxRetries', 'retryBaseMs', 'maxRetryAfterMs'] as const) {
    const value = o[name];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
      throw new TypeError(
        `new Warden(options): options.${name} must be a non-negative number, got ${JSON.stringify(value)}.`,
      );
    }
  }
  if (o.fetch !== undefined && typeof o.fetch !== 'function') {
    throw new TypeError('new Warden(options): options.fetch must be a function (a fetch implementation).');
  }
}

function requireString(o: Record<string, unknown>, name: string, what: string): void {
  const value = o[name];
  if (value === undefined || value === null || value === '') {
    throw new TypeError(`new Warden(options): options.${name} is required (${what}).`);
  }
  if (typeof value !== 'string') {
    throw new TypeError(`new Warden(options): options.${name} must be a string, got ${typeof value}.`);
  }
}
