import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from '../errors.ts';
import type { ScoringSite, ScoringSites, Surface } from '../workspace/scoring-sites.ts';
import { sha256Hex } from '../workspace/tokens.ts';

/**
 * Site authentication of the scoring routes (interface §5, SPEC §1/§10).
 * Browser routes: `X-Site-Key` + an `Origin` exactly on the site's list.
 * Server routes: `X-Site-Key` + `X-Secret-Key`, compared in constant time.
 * Runs as a preValidation hook: after 413/415/invalid_json, before schema validation.
 *
 * Sites are looked up by key (workspace/scoring-sites.ts) and remembered for at most 1 s, and until
 * a site or workspace changes (workspace/site-key-cache.ts): a key rotated here, or in another
 * server process (told by NOTIFY on PostgreSQL, by the primary under `serve --workers`;
 * workspace/site-change-feed.ts), stops working at once (interface §5 rule 6). A CLI command beside
 * the server on SQLite is seen within the 1 s (SPEC §10).
 */
export type { ScoringSite, Surface };

/** What the hooks read sites with (the process's `ScoringSites`). */
export type SiteLookup = Pick<ScoringSites, 'remembered' | 'find' | 'originAllowedBySomeSite'>;

declare module 'fastify' {
  interface FastifyRequest {
    scoringSite?: ScoringSite;
    /** What the site-key lookup found (null: no such key), once it ran for this request. */
    siteLookup?: ScoringSite | null;
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text;
}

/** Constant-time check of a presented secret against the stored SHA-256 hex. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const actual = Buffer.from(sha256Hex(presented), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * The request's site: at once (no promise) when its key is remembered, which is every request of
 * a busy key but one a second; else looked up. Throws (or rejects) for a missing or unknown key.
 */
function siteFromKey(sites: SiteLookup, request: FastifyRequest): ScoringSite | Promise<ScoringSite> {
  const siteKey = header(request, 'x-site-key');
  if (!siteKey) throw new ApiError('missing_site_key', 'Send the site key in the X-Site-Key header.');
  const remembered = sites.remembered(siteKey);
  if (remembered) return foundSite(request, remembered);
  return sites.find(siteKey).then((found) => foundSite(request, found));
}

function foundSite(request: FastifyRequest, found: ScoringSite | undefined): ScoringSite {
  request.siteLookup = found ?? null;
  if (!found) throw new ApiError('invalid_site_key', 'The X-Site-Key is not a known site key.');
  return found;
}

/**
 * A preValidation hook that authenticates with `check` once the site is known: a plain call when
 * the site key is remembered, no promise (one per request otherwise).
 */
function siteHook(
  sites: SiteLookup,
  check: (request: FastifyRequest, reply: FastifyReply, found: ScoringSite) => void,
) {
  return (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    const found = siteFromKey(sites, request);
    if (!(found instanceof Promise)) {
      check(request, reply, found);
      done();
      return;
    }
    found.then(
      (site) => {
        let failed: Error | undefined;
        try {
          check(request, reply, site);
        } catch (err) {
          failed = err as Error;
        }
        done(failed);
      },
      (err: Error) => done(err),
    );
  };
}

export const EXPOSED_HEADERS =
  'Idempotent-Replayed, Retry-After, X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy';

function allowOrigin(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', EXPOSED_HEADERS);
}

/** preValidation hook of the browser routes. */
export function browserSiteAuth(sites: SiteLookup) {
  const hook = siteHook(sites, (request, reply, found) => {
    const origin = header(request, 'origin');
    if (!origin || !found.allowedOrigins.includes(origin)) {
      throw new ApiError(
        'origin_not_allowed',
        origin
          ? "The request Origin is not on the site's allowed list."
          : 'Browser routes need an Origin header.',
      );
    }
    allowOrigin(reply, origin);
    request.scoringSite = found;
  });
  return (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    reply.header('vary', 'Origin');
    hook(request, reply, done);
  };
}

/**
 * onSend hook of the browser routes. An error answered before the Origin was checked (413, 415,
 * invalid_json, a missing or unknown site key) still carries the CORS headers when the Origin is
 * allowed: by the named site, or, without a known site key, by any site (as the preflight
 * answers). So the page can read the error code; a disallowed Origin still gets none.
 */
export function browserErrorCors(sites: SiteLookup) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (reply.statusCode < 400 || reply.hasHeader('access-control-allow-origin')) return payload;
    reply.header('vary', 'Origin');
    const origin = header(request, 'origin');
    if (!origin) return payload;
    // The auth hook's lookup when it ran; errors before it (413, 415, invalid_json) look it up here.
    const siteKey = header(request, 'x-site-key');
    const found =
      request.siteLookup !== undefined ? request.siteLookup : siteKey ? await sites.find(siteKey) : undefined;
    const allowed = found
      ? found.allowedOrigins.includes(origin)
      : await sites.originAllowedBySomeSite(origin);
    if (allowed) allowOrigin(reply, origin);
    return payload;
  };
}

/** preValidation hook of the server routes (`/verify…`). */
export function serverSiteAuth(sites: SiteLookup) {
  return siteHook(sites, (request, _reply, found) => {
    const secret = header(request, 'x-secret-key');
    if (!secret) throw new ApiError('missing_secret_key', 'Send the secret key in the X-Secret-Key header.');
    if (!secretMatches(secret, found.site.secret_key_hash)) {
      throw new ApiError('invalid_secret_key', 'The X-Secret-Key does not belong to this site.');
    }
    request.scoringSite = found;
  });
}

export function siteAuthHook(sites: SiteLookup, surface: Surface) {
  return surface === 'browser' ? browserSiteAuth(sites) : serverSiteAuth(sites);
}

export function scoringSiteOf(request: FastifyRequest): ScoringSite {
  if (!request.scoringSite) throw new ApiError('invalid_site_key', 'The site is not authenticated.');
  return request.scoringSite;
}

/** OPTIONS handler of the browser routes: 204 with CORS headers for an allowed origin, else 403. */
export function preflightHandler(sites: SiteLookup) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('vary', 'Origin');
    const origin = header(request, 'origin');
    if (!origin || !(await sites.originAllowedBySomeSite(origin))) {
      return reply
        .status(403)
        .send(errorBody('origin_not_allowed', 'The Origin is not on any site’s allowed list.'));
    }
    allowOrigin(reply, origin);
    reply.header('access-control-allow-methods', 'POST, OPTIONS');
    reply.header('access-control-allow-headers', 'Content-Type, X-Site-Key, X-Request-Id, Idempotency-Key');
    reply.header('access-control-max-age', '600');
    return reply.status(204).send();
  };
}
