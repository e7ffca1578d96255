import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';

/** Management bodies (interface §8). Scoring routes set their own `bodyLimit`. */
export const MANAGEMENT_BODY_LIMIT = 100 * 1024;

/**
 * JSON only. Any other media type is still read up to the route's limit first, so that an
 * oversized body answers 413 before 415 (SPEC §10 order: 413 → 415 → invalid_json).
 * Fastify stops reading as soon as the limit is crossed: oversized bodies are never buffered whole.
 */
export function installBodyParsing(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = body as string;
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new ApiError('invalid_json', 'The request body is not valid JSON.'), undefined);
      }
    },
  );
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => {
    done(new ApiError('unsupported_media_type', 'Send the body as application/json.'), undefined);
  });
}
