/** Typed API errors: the envelope `{success: false, error: {code, message, details?}}` (SPEC §1). */
export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }

  get isUnauthorized(): boolean {
    return this.status === 401 && this.code === 'unauthorized';
  }
  get isPlanRequired(): boolean {
    return this.status === 402;
  }
  get isNotFound(): boolean {
    return this.status === 404;
  }
}

/** Fallback messages when an answer carries no readable error body (a proxy's page, a network error). */
const STATUS_TEXT: Record<number, string> = {
  400: 'The request was not accepted.',
  401: 'Your session has ended; sign in again.',
  402: 'This feature needs a higher plan.',
  403: 'Your role does not allow this.',
  404: 'Not found.',
  409: 'This conflicts with the current state; reload and try again.',
  413: 'The request is too large.',
  415: 'The request has the wrong media type.',
  429: 'Too many requests; wait a moment and try again.',
  500: 'The server failed; try again.',
  502: 'The server is not reachable (bad gateway).',
  503: 'The server is not available right now.',
};

function isDetail(value: unknown): value is ErrorDetail {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorDetail).path === 'string' &&
    typeof (value as ErrorDetail).message === 'string'
  );
}

/** The ApiError for a non-success answer: its envelope if there is one, else the status. */
export function errorFromResponse(status: number, body: unknown, retryAfter: string | null = null): ApiError {
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  if (typeof error === 'object' && error !== null) {
    const e = error as { code?: unknown; message?: unknown; details?: unknown };
    const code = typeof e.code === 'string' ? e.code : `http_${status}`;
    const message =
      typeof e.message === 'string' && e.message ? e.message : (STATUS_TEXT[status] ?? 'Error.');
    const details = Array.isArray(e.details) ? e.details.filter(isDetail) : [];
    return new ApiError(status, code, message, details, seconds);
  }
  return new ApiError(status, `http_${status}`, STATUS_TEXT[status] ?? `HTTP ${status}.`, [], seconds);
}

export function networkError(err: unknown): ApiError {
  const reason = err instanceof Error ? err.message : String(err);
  return new ApiError(0, 'network_error', `The server could not be reached (${reason}).`);
}

/** `details` by field: `body.expression` → its messages (the path prefix is dropped). */
export function fieldErrors(details: readonly ErrorDetail[], prefix = 'body.'): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const d of details) {
    const field = d.path.startsWith(prefix) ? d.path.slice(prefix.length) : d.path;
    const list = out[field] ?? [];
    list.push(d.message);
    out[field] = list;
  }
  return out;
}

export interface SourcePosition {
  line: number;
  column: number;
}

/**
 * Where a CEL compile error points: "… at line 1, column 18", or the code frame
 * `>    1 | event.type ==` followed by a caret line. Also answers the first line as the summary.
 */
export function celErrorPosition(message: string): { summary: string; position: SourcePosition | null } {
  const lines = message.split('\n');
  const summary = (lines[0] ?? message).trim();
  const atText = /line (\d+),? column (\d+)/i.exec(message);
  if (atText) return { summary, position: { line: Number(atText[1]), column: Number(atText[2]) } };
  for (let i = 0; i < lines.length - 1; i++) {
    const frame = /^>\s*(\d+) \| /.exec(lines[i] ?? '');
    const caret = (lines[i + 1] ?? '').indexOf('^');
    if (frame && caret >= 0) {
      return { summary, position: { line: Number(frame[1]), column: caret - frame[0].length + 1 } };
    }
  }
  return { summary, position: null };
}

/** Human text for an error, with its code: "Your role does not allow this. (forbidden)". */
export function describeError(err: unknown): { message: string; code: string } {
  if (err instanceof ApiError) return { message: err.message, code: err.code };
  if (err instanceof Error) return { message: err.message, code: 'client_error' };
  return { message: String(err), code: 'client_error' };
}
