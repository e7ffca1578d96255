/** One answer the fuzzer got, as much as the oracle needs. */
export interface Answer {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: string;
}

/** Paths whose answers are not the SPEC §1 envelope: documents, exports, the dashboard, metrics. */
const NOT_ENVELOPED = [/^\/api\/openapi\.json/, /^\/api\/decisions\/export/, /^\/api\/docs/];

/**
 * What every answer must satisfy (issue 17, targets): never a 5xx; under /api/, every error is in
 * the envelope `{success: false, error: {code, message}}` and every JSON success says `success: true`.
 * Returns the broken rule, or null.
 */
export function violation(a: Answer): string | null {
  if (a.status >= 500) return `${a.status} answer`;
  if (!a.path.startsWith('/api/') || NOT_ENVELOPED.some((p) => p.test(a.path)) || a.method === 'HEAD') {
    return null;
  }
  const json = a.contentType.includes('application/json');
  if (a.status >= 400) {
    if (!json) return `error ${a.status} is not JSON (${a.contentType || 'no content type'})`;
    let parsed: { success?: unknown; error?: { code?: unknown; message?: unknown } };
    try {
      parsed = JSON.parse(a.body);
    } catch {
      return `error ${a.status} body is not valid JSON`;
    }
    if (
      parsed.success !== false ||
      typeof parsed.error?.code !== 'string' ||
      typeof parsed.error.message !== 'string'
    ) {
      return `error ${a.status} not in the envelope: ${a.body.slice(0, 200)}`;
    }
  } else if (json && a.status !== 204) {
    try {
      if ((JSON.parse(a.body) as { success?: unknown }).success !== true)
        return 'success answer not in the envelope';
    } catch {
      return 'success body is not valid JSON';
    }
  }
  return null;
}
