/**
 * The one HTTP client: bearer token, JSON bodies, envelope unwrapping, typed errors. A 401
 * `unauthorized` (expired, revoked or unknown token) ends the session and returns to sign-in.
 */
import { type ApiError, errorFromResponse, networkError } from './errors.ts';

type Query = Record<string, string | number | boolean | null | undefined>;

interface Options {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

let accessToken: string | null = null;
let onUnauthorized: (err: ApiError) => void = () => undefined;

export function setAccessToken(token: string | null): void {
  accessToken = token;
}

export function setUnauthorizedHandler(handler: (err: ApiError) => void): void {
  onUnauthorized = handler;
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function request<T>(method: string, path: string, options: Options = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  const init: RequestInit = { method, headers, credentials: 'omit' };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  if (options.signal) init.signal = options.signal;
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), init);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw networkError(err);
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!response.ok || (body as { success?: unknown } | null)?.success !== true) {
    const error = errorFromResponse(
      response.ok ? 500 : response.status,
      body,
      response.headers.get('retry-after'),
    );
    if (error.isUnauthorized && accessToken) onUnauthorized(error);
    throw error;
  }
  return (body as { data: T }).data;
}

/** A non-enveloped file (an export) as a Blob; errors arrive in the envelope as usual. */
async function download(path: string, query?: Query): Promise<Blob> {
  const headers: Record<string, string> = {};
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), { headers, credentials: 'omit' });
  } catch (err) {
    throw networkError(err);
  }
  if (response.ok) return response.blob();
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  const error = errorFromResponse(response.status, body, response.headers.get('retry-after'));
  if (error.isUnauthorized && accessToken) onUnauthorized(error);
  throw error;
}

export const api = {
  download,
  get: <T>(path: string, query?: Query, signal?: AbortSignal) =>
    request<T>('GET', path, { ...(query ? { query } : {}), ...(signal ? { signal } : {}) }),
  post: <T>(path: string, body?: unknown, query?: Query) =>
    request<T>('POST', path, { body, ...(query ? { query } : {}) }),
  put: <T>(path: string, body: unknown, query?: Query) =>
    request<T>('PUT', path, { body, ...(query ? { query } : {}) }),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, { body }),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
