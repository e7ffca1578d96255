import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { issueAltchaChallenge } from '../../challenge/altcha.ts';
import { issueAltchaV2Challenge } from '../../challenge/altcha-v2.ts';
import { parseDifficulty } from '../../challenge/index.ts';
import { ApiError } from '../../errors.ts';
import { enforceScoringRateLimit } from '../../pipeline/rate-limit.ts';
import type { SitesTable } from '../../storage/schema.ts';
import { EXPOSED_HEADERS } from '../site-auth.ts';
import type { App } from '../types.ts';
import { ANTIBOT_PREFIX, type ScoringDeps } from './scoring-common.ts';

/**
 * `GET /api/antibot/altcha/challenge?sitekey=pk_…[&difficulty=…]`: a proof-of-work challenge in
 * ALTCHA's own JSON (`{algorithm, challenge, maxnumber, salt, signature}`, no envelope), so the
 * official `<altcha-widget challengeurl="…">` works against Warden unchanged (docs/altcha.md).
 * `GET /api/antibot/altcha/v2/challenge?…`: the same in ALTCHA's PoW v2 JSON (`{parameters,
 * signature}`) for the widget 3.x's `challenge="…"` attribute.
 * Authenticated like the browser routes: the public site key (in the query, as the widget sends
 * no headers of its own) and an Origin on the site's list. A same-origin GET carries no Origin,
 * so the Referer's origin stands in for it then. Errors are the usual envelope.
 */
const AltchaQuery = Type.Object(
  {
    sitekey: Type.String({ minLength: 1, maxLength: 256 }),
    difficulty: Type.Optional(Type.String({ minLength: 1, maxLength: 8 })),
  },
  { additionalProperties: false },
);

function requestOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (origin) return origin;
  const referer = request.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

function difficultyOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return parseDifficulty(/^\d+$/.test(value) ? Number(value) : value);
}

type Issue = (
  ctx: ScoringDeps,
  site: SitesTable,
  options: { difficulty?: number | undefined; ip: string },
) => Promise<unknown>;

function registerOne(app: App, ctx: ScoringDeps, url: string, summary: string, issue: Issue): void {
  app.get<{ Querystring: typeof AltchaQuery.static }>(
    url,
    {
      schema: {
        tags: ['challenge'],
        summary,
        // The public site key travels in the query (the widget's challenge URL), checked with Origin.
        security: [],
        querystring: AltchaQuery,
      },
    },
    async (request, reply) => {
      reply.header('vary', 'Origin');
      reply.header('cache-control', 'no-store');
      const found = await ctx.services.sites.find(request.query.sitekey);
      const origin = requestOrigin(request);
      const allowed = found !== undefined && origin !== undefined && found.allowedOrigins.includes(origin);
      if (allowed) {
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-expose-headers', EXPOSED_HEADERS);
      }
      if (!found)
        throw new ApiError('invalid_site_key', 'The sitekey query parameter is not a known site key.');
      if (!allowed) {
        throw new ApiError(
          'origin_not_allowed',
          origin
            ? "The request Origin is not on the site's allowed list."
            : 'The request has no Origin or Referer.',
        );
      }
      const difficulty = difficultyOf(request.query.difficulty);
      await enforceScoringRateLimit(ctx, 'browser', found.site.id, request.ip);
      return issue(ctx, found.site, { difficulty, ip: request.ip });
    },
  );
}

export function registerAltchaRoute(app: App, ctx: ScoringDeps): void {
  registerOne(
    app,
    ctx,
    `${ANTIBOT_PREFIX}/altcha/challenge`,
    'Issue a proof-of-work challenge in ALTCHA v1 format (altcha widget 1.x-2.x: challengeurl)',
    issueAltchaChallenge,
  );
  registerOne(
    app,
    ctx,
    `${ANTIBOT_PREFIX}/altcha/v2/challenge`,
    'Issue a proof-of-work challenge in ALTCHA v2 format (altcha widget 3.x: challenge)',
    issueAltchaV2Challenge,
  );
}
