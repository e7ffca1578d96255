import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { BROWSER_ORIGIN } from '../scoring-app.ts';
import { destructive, type FuzzFixture } from './fixture.ts';
import { type Answer, violation } from './oracle.ts';
import { type JsonSchema, mutationOf, valueFor } from './schema-arbitrary.ts';

/** One generated HTTP request. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FuzzReport {
  sent: number;
  byStatus: Record<string, number>;
  failures: Array<{ request: FuzzRequest; problem: string }>;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Percent-encoding that never throws: lone surrogates go as the bytes UTF-8 replaces them with. */
function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function encodeQuery(value: unknown): string {
  if (value === null || typeof value !== 'object') return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    for (const one of Array.isArray(v) ? v : [v]) {
      parts.push(`${pct(k)}=${pct(typeof one === 'string' ? one : String(JSON.stringify(one)))}`);
    }
  }
  return parts.join('&');
}

/** Requests over the routes' own schemas (the ones the OpenAPI document is generated from). */
export function requestArbitrary(routes: RouteOptions[], fixture: FuzzFixture): fc.Arbitrary<FuzzRequest> {
  const pick = (name: string) => {
    const values = fixture.known[name];
    return values && values.length > 0 ? values[0] : undefined;
  };
  const knownOr = (name: string): fc.Arbitrary<string> => {
    const values = fixture.known[name] ?? [];
    const random = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('..', '%2e%2e', '0', '-1', 'x'.repeat(300)),
    );
    return values.length > 0
      ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...values) }, random)
      : random;
  };
  const perRoute = routes.flatMap((route) =>
    ([] as string[])
      .concat(route.method as string | string[])
      .filter((m) => m !== 'HEAD' && m !== 'OPTIONS')
      .map((method) => {
        const schema = (route.schema ?? {}) as { querystring?: JsonSchema; body?: JsonSchema };
        const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
        const params = fc.tuple(...names.map((n) => knownOr(n === 'id' ? 'id' : n)));
        const query = schema.querystring ? valueFor(schema.querystring, pick) : fc.constant({});
        const queryOrMutation = query.chain((q) =>
          fc.oneof({ weight: 4, arbitrary: fc.constant(q) }, mutationOf(q)),
        );
        const body = schema.body ? valueFor(schema.body, pick) : fc.constant({});
        const bodyOrMutation = body.chain((b) =>
          fc.oneof({ weight: 3, arbitrary: fc.constant(b) }, mutationOf(b)),
        );
        const auth = fc.constantFrom<'owner' | 'viewer' | 'none' | 'garbage'>(
          'owner',
          'owner',
          'viewer',
          'none',
          'garbage',
        );
        const encoding = fc.constantFrom<'json' | 'text' | 'broken' | 'empty'>(
          'json',
          'json',
          'json',
          'json',
          'text',
          'broken',
          'empty',
        );
        return fc
          .record({ params, query: queryOrMutation, body: bodyOrMutation, auth, encoding })
          .map(({ params: values, query: q, body: b, auth: who, encoding: enc }): FuzzRequest => {
            let i = 0;
            const path = route.url.replace(/:[A-Za-z]+/g, () => pct(values[i++] ?? ''));
            const qs = encodeQuery(q);
            const headers: Record<string, string> = {};
            // Signing out would end the fixture's sessions for the rest of the run: never with a real token.
            const signsOut = route.url.endsWith('/logout') && (who === 'owner' || who === 'viewer');
            const as = signsOut ? 'garbage' : destructive(route) && who === 'owner' ? 'viewer' : who;
            if (as === 'owner') Object.assign(headers, fixture.ws.owner.headers);
            if (as === 'viewer') Object.assign(headers, fixture.viewer.headers);
            if (as === 'garbage') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.e30.';
            if (path.startsWith('/api/antibot/')) {
              headers['x-site-key'] = fixture.ws.site.siteKey;
              headers['x-secret-key'] = fixture.ws.site.secretKey;
              headers.origin = BROWSER_ORIGIN;
            }
            const request: FuzzRequest = { method, path: qs ? `${path}?${qs}` : path, headers };
            if (BODY_METHODS.has(method) && enc !== 'empty') {
              headers['content-type'] = enc === 'text' ? 'text/plain' : 'application/json';
              request.body = enc === 'broken' ? '{"a":' : (JSON.stringify(b) ?? 'undefined');
            }
            return request;
          });
      }),
  );
  return fc.oneof(...perRoute);
}

/**
 * Send `count` generated requests (from `seed`, so a run can be repeated) to `baseUrl`, `concurrency`
 * at a time, and check every answer against the oracle. A request that gets no answer within
 * `timeoutMs` is a failure too (a hang).
 */
export async function runHttpFuzz(options: {
  baseUrl: string;
  routes: RouteOptions[];
  fixture: FuzzFixture;
  seed: number;
  count: number;
  concurrency?: number;
  timeoutMs?: number;
  onProgress?: (report: FuzzReport) => void;
}): Promise<FuzzReport> {
  const report: FuzzReport = { sent: 0, byStatus: {}, failures: [] };
  const arbitrary = requestArbitrary(options.routes, options.fixture);
  const chunk = 500;
  for (let start = 0; start < options.count; start += chunk) {
    const n = Math.min(chunk, options.count - start);
    const requests = fc.sample(arbitrary, { seed: options.seed + start, numRuns: n });
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++]!;
        const problem = await sendOne(options.baseUrl, request, options.timeoutMs ?? 15_000, report);
        if (problem) report.failures.push({ request, problem });
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
    options.onProgress?.(report);
  }
  return report;
}

async function sendOne(
  baseUrl: string,
  request: FuzzRequest,
  timeoutMs: number,
  report: FuzzReport,
): Promise<string | null> {
  report.sent++;
  let answer: Answer;
  try {
    const res = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    answer = {
      method: request.method,
      path: request.path,
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      body: await res.text(),
    };
  } catch (err) {
    return `no answer: ${(err as Error).name} ${(err as Error).message}`;
  }
  report.byStatus[answer.status] = (report.byStatus[answer.status] ?? 0) + 1;
  return violation(answer);
}
