/**
 * The one table of error codes (SPEC §1). Every error answered by the API comes from here;
 * docs/errors.md is checked against it by errors.test.ts.
 */
export const ERROR_CODES = {
  invalid_json: { status: 400, description: 'The body is not valid JSON.' },
  bad_request: {
    status: 400,
    description: 'The HTTP request itself is malformed (request line, headers, framing).',
  },
  validation_failed: {
    status: 400,
    description: 'The body, query or path broke the schema; `details` lists `{path, message}`.',
  },
  invalid_webhook_url: {
    status: 400,
    description: 'The webhook URL breaks the receiver rules (interface 6.1).',
  },
  missing_site_key: { status: 401, description: 'No `X-Site-Key` header on a scoring route.' },
  invalid_site_key: { status: 401, description: 'The `X-Site-Key` is not a known site key.' },
  missing_secret_key: {
    status: 401,
    description: 'A server scoring route was called without `X-Secret-Key`.',
  },
  invalid_secret_key: { status: 401, description: 'The `X-Secret-Key` does not belong to the site.' },
  unauthorized: {
    status: 401,
    description:
      'No, malformed, revoked or expired bearer token; a refused SAML response; a wrong `/metrics` token.',
  },
  invalid_credentials: {
    status: 401,
    description: 'Login with a wrong e-mail or password (same answer for both).',
  },
  plan_required: {
    status: 402,
    description: 'The feature needs the Pro or Enterprise plan (the demo workspace is exempt).',
  },
  origin_not_allowed: {
    status: 403,
    description: "Browser route: `Origin` absent or not on the site's allowed list.",
  },
  forbidden: {
    status: 403,
    description: 'Role or token scope does not allow it, or the workspace requires SSO.',
  },
  not_found: { status: 404, description: 'Unknown resource, or one in a workspace you are not a member of.' },
  idempotency_conflict: {
    status: 409,
    description: 'The `idempotency_key` was used before with a different body.',
  },
  idempotency_in_progress: {
    status: 409,
    description: 'A request with the same `idempotency_key` is still running.',
  },
  conflict: {
    status: 409,
    description: 'The operation conflicts with the current state (for example a duplicate).',
  },
  request_timeout: {
    status: 408,
    description: 'The request (headers and body) did not arrive within the request timeout.',
  },
  payload_too_large: { status: 413, description: 'The body is over the limit of the route (interface §8).' },
  unsupported_media_type: { status: 415, description: 'The body is not `application/json`.' },
  headers_too_large: { status: 431, description: 'The request headers are over 16 KiB in total.' },
  rate_limited: {
    status: 429,
    description: 'Too many requests; `Retry-After` says how many seconds to wait.',
  },
  internal_error: { status: 500, description: 'An unexpected failure; nothing internal is revealed.' },
  unavailable: {
    status: 503,
    description:
      'The database has no room for the write (disk full); nothing was recorded. `Retry-After` says when to try again.',
  },
  not_ready: {
    status: 503,
    description:
      'Readiness probe: the database or the hot-state store does not answer, or a start-up step is not done.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorDetail {
  path: string;
  message: string;
}

/** An error with a stable code; the HTTP status always comes from ERROR_CODES. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra headers to send with the error, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_CODES[code].status;
  }
}

export function errorBody(code: ErrorCode, message: string, details?: ErrorDetail[]) {
  return {
    success: false as const,
    error: details && details.length > 0 ? { code, message, details } : { code, message },
    timestamp: new Date().toISOString(),
  };
}
