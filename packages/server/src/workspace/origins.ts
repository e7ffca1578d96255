import { ApiError, type ErrorDetail } from '../errors.ts';

/**
 * Why an origin is refused, or null when `input` is exactly a browser origin:
 * http/https scheme, host, optional port — no path, query, fragment or credentials.
 * We compare against `new URL(input).origin` so that the stored value is byte-for-byte what a
 * browser sends in its `Origin` header (lower-case host, no default port, no trailing slash).
 */
export function originProblem(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return 'is not a URL; write an origin such as https://shop.example';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use the http or https scheme';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (url.search !== '' || input.includes('?')) return 'must not contain a query';
  if (url.hash !== '' || input.includes('#')) return 'must not contain a fragment';
  if (url.pathname !== '/' || input.endsWith('/')) return 'must not contain a path (not even "/")';
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)$/.test(url.hostname))
    return 'must name one host: letters, digits, dots and hyphens (no wildcards such as *.shop.example)';
  if (url.origin !== input) return `is not in canonical form; write it as ${url.origin}`;
  return null;
}

/**
 * Validate a complete list of origins; duplicates are dropped (order kept).
 * Throws 400 validation_failed listing every bad entry under `pathPrefix.<index>`.
 */
export function normaliseOrigins(origins: readonly string[], pathPrefix = 'body.allowedOrigins'): string[] {
  const details: ErrorDetail[] = [];
  origins.forEach((origin, index) => {
    const problem = originProblem(origin);
    if (problem) details.push({ path: `${pathPrefix}.${index}`, message: `"${origin}" ${problem}` });
  });
  if (details.length > 0) {
    throw new ApiError('validation_failed', `Invalid allowed origin: ${details[0]!.message}`, details);
  }
  return [...new Set(origins)];
}
