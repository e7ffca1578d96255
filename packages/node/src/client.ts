import { randomUUID } from 'node:crypto';
import { WardenBatchError, WardenError } from './errors.ts';
import { assertWardenOptions, type WardenOptions } from './options.ts';
import type {
  BatchItemResult,
  BatchResult,
  ChallengeDescriptor,
  ChallengeVerification,
  Decision,
  FingerprintRegistration,
  VerificationRequest,
} from './types.ts';

export type { WardenOptions };

/** Sent in the User-Agent of every call. */
export const SDK_VERSION = '0.1.0';

const RETRYABLE_CODES = new Set(['idempotency_in_progress', 'rate_limited']);

function withKey(request: VerificationRequest): VerificationRequest {
  return request.idempotency_key ? request : { ...request, idempotency_key: `wdn_${randomUUID()}` };
}

/**
 * Server-side client for the private scoring routes. Every scoring call carries an idempotency
 * key (generated when absent) and is retried with the same key, so a retry never records a
 * second decision.
 */
export class Warden {
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;
  private readonly maxRetryAfterMs: number;

  constructor(private readonly options: WardenOptions) {
    assertWardenOptions(options);
    this.base = `${options.baseUrl.replace(/\/+$/, '')}/api/antibot`;
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.retryBaseMs = options.retryBaseMs ?? 250;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
  }

  /** Score one event. Enforce `action` on your server. */
  verify(request: VerificationRequest): Promise<Decision> {
    return this.post<Decision>('/verify', withKey(request));
  }

  /**
   * Score 1–50 events. The call succeeds even when single items fail: inspect each result, or pass
   * `throwOnItemError` to get a WardenBatchError listing the failures.
   */
  async verifyBatch(
    events: VerificationRequest[],
    options: { throwOnItemError?: boolean } = {},
  ): Promise<BatchResult> {
    const result = await this.post<BatchResult>('/verify/batch', { events: events.map(withKey) });
    const failures = result.results.filter(
      (r): r is Extract<BatchItemResult, { success: false }> => !r.success,
    );
    if (options.throwOnItemError && failures.length > 0) throw new WardenBatchError(failures);
    return result;
  }

  registerFingerprint(body: {
    fingerprint: Record<string, unknown>;
    behavior?: Record<string, unknown>;
  }): Promise<FingerprintRegistration> {
    return this.post<FingerprintRegistration>('/verify/fingerprint', body);
  }

  challenge(body: { difficulty?: number | 'low' | 'medium' | 'high' } = {}): Promise<ChallengeDescriptor> {
    return this.post<ChallengeDescriptor>('/verify/challenge', body);
  }

  /**
   * Check a solved challenge: `{challenge_id, nonce}`, or `{altcha}` with the ALTCHA widget's
   * payload (see verifyAltchaPayload, which checks it here first). A proof is single use, so
   * this call is retried only when the server certainly did not see it (429, connection
   * refused): after a timeout or a lost answer a retry would read `already_used` for a good proof, so the WardenError (`timeout`, `network_error`,
   * 5xx) is yours to handle.
   */
  verifyChallenge(
    body: { challenge_id: string; nonce: string | number } | { altcha: string },
  ): Promise<ChallengeVerification> {
    return this.post<ChallengeVerification>('/verify/challenge/verify', body, { singleUse: true });
  }

  private async post<T>(path: string, body: unknown, options: { singleUse?: boolean } = {}): Promise<T> {
    const payload = JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      let error: WardenError;
      try {
        return await this.once<T>(path, payload);
      } catch (err) {
        if (!(err instanceof WardenError)) throw err;
        error = err;
      }
      const retryable = options.singleUse
        ? error.status === 429 || error.code === 'connection_refused'
        : error.status === 0 ||
          error.status >= 500 ||
          error.status === 429 ||
          RETRYABLE_CODES.has(error.code);
      if (!retryable || attempt >= this.maxRetries) throw error;
      await sleep(this.delayMs(attempt, error.retryAfterS));
    }
  }

  private delayMs(attempt: number, retryAfterS: number | undefined): number {
    if (retryAfterS !== undefined) return Math.min(retryAfterS * 1000, this.maxRetryAfterMs);
    return Math.random() * this.retryBaseMs * 2 ** attempt;
  }

  private async once<T>(path: string, payload: string): Promise<T> {
    let res: Response;
    let text: string;
    // The answer is complete only with its body: a timeout or a reset while it is read is no answer.
    try {
      res = await this.fetchImpl(`${this.base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-site-key': this.options.siteKey,
          'x-secret-key': this.options.secretKey,
          'user-agent': `warden-node/${SDK_VERSION}`,
        },
        body: payload,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      const timedOut = (err as { name?: string }).name === 'TimeoutError';
      // Refused: nothing was sent, so even a single-use call may be tried again.
      const refused = (err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
      throw new WardenError(
        timedOut ? `No answer within ${this.timeoutMs} ms` : `Network error: ${(err as Error).message}`,
        0,
        timedOut ? 'timeout' : refused ? 'connection_refused' : 'network_error',
      );
    }
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const envelope = json as
      | { success?: boolean; data?: T; error?: { code?: string; message?: string; details?: [] } }
      | undefined;
    if (res.ok && envelope?.success === true) return envelope.data as T;
    const retryAfter = res.headers.get('retry-after');
    const retryAfterS = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
    throw new WardenError(
      envelope?.error?.message ?? `HTTP ${res.status}`,
      res.status,
      envelope?.error?.code ?? (res.ok ? 'invalid_response' : `http_${res.status}`),
      envelope?.error?.details,
      retryAfterS,
    );
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
