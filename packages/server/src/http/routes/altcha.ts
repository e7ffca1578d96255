import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { issueAltchaChallenge } from '../../challenge/altcha.ts';
import { parseDifficulty } from '../../challenge/index.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { enforceScoringRateLimit } from '../../scoring/rate-limit.ts';
import { EXPOSED_HEADERS, findSiteByKey } from '../site-auth.ts';
import type { App } from '../types.ts';
import { ANTIBOT_PREFIX } from './scoring-common.ts';

/**
 * `GET /api/antibot/altcha/challenge?sitekey=pk_…[&difficulty=…]`: a proof-of-work challenge in
 * ALTCHA's own JSON (`{algorithm, challenge, maxnumber, salt, signature}`, no envelope), so the
 * official `<altcha-widget challengeurl="…">` works against Warden unchanged (docs/altcha.md).
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

export function registerAltchaRoute(app: App, ctx: AppContext): void {
  app.get<{ Querystring: typeof AltchaQuery.static }>(
    `${ANTIBOT_PREFIX}/altcha/challenge`,
    {
      schema: {
        tags: ['challenge'],
        summary: 'Issue a proof-of-work challenge in ALTCHA format (for the altcha widget)',
        // The public site key travels in the query (the widget's challengeurl), checked with Origin.
        security: [],
        querystring: AltchaQuery,
      },
    },
    async (request, reply) => {
      reply.header('vary', 'Origin');
      reply.header('cache-control', 'no-store');
      const found = await findSiteByKey(ctx, request.query.sitekey);
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
      return issueAltchaChallenge(ctx, found.site, { difficulty, ip: request.ip });
    },
  );
}
