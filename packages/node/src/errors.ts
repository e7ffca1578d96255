import type { ApiErrorBody, BatchItemResult } from './types.ts';

/** An error answered by Warden (`{success: false, error: {code, message, details?}}`) or a transport failure. */
export class WardenError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when no answer arrived (network error, timeout). */
    readonly status: number,
    /**
     * Stable machine-readable code (SPEC §1); without an answer `timeout`, `connection_refused`
     * (nothing was sent) or `network_error`; `http_<status>` / `invalid_response` for answers
     * that are not Warden's envelope.
     */
    readonly code: string,
    readonly details?: ApiErrorBody['details'],
    /** Seconds from Retry-After, when the service sent one. */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'WardenError';
  }
}

/** Thrown by `verifyBatch(..., {throwOnItemError: true})`: the batch answered, some items failed. */
export class WardenBatchError extends Error {
  constructor(readonly failures: Array<Extract<BatchItemResult, { success: false }>>) {
    super(
      `${failures.length} batch item(s) failed: ${failures.map((f) => `#${f.index} ${f.error.code}`).join(', ')}`,
    );
    this.name = 'WardenBatchError';
  }
}
