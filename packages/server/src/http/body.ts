import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';

/** Management bodies (interface §8). Scoring routes set their own `bodyLimit`. */
export const MANAGEMENT_BODY_LIMIT = 100 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as received (text); set only when a body was actually sent. */
    jsonText?: string;
  }
}

/** Empty or whitespace only (tested without copying the body, as trim() would). */
const BLANK = /^\s*$/;

/**
 * `application/json` only, with parameters such as charset (SPEC §1: 415 for anything else, also
 * for JSON-based types like `application/merge-patch+json`). Any other media type is still read
 * up to the route's limit first, so that an oversized body answers 413 before 415 (SPEC §10
 * order: 413 → 415 → invalid_json).
 * Fastify stops reading as soon as the limit is crossed: oversized bodies are never buffered whole.
 */
export function installBodyParsing(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/json(\s*;.*)?$/i, { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (BLANK.test(text)) {
      // No body at all where the route reads one is "not JSON" (SPEC §1); elsewhere it is no body.
      if (request.routeOptions.schema?.body === undefined) return done(null, undefined);
      return done(new ApiError('invalid_json', 'The request body is empty; send a JSON value.'), undefined);
    }
    request.jsonText = text;
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError('invalid_json', 'The request body is not valid JSON.'), undefined);
    }
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => {
    done(new ApiError('unsupported_media_type', 'Send the body as application/json.'), undefined);
  });
  // Every body Warden reads is a JSON object. A route whose body is optional (`POST /challenge`)
  // lets its schema accept "no body", which Fastify validates as null: so a JSON `null`, list or
  // scalar that was actually sent is refused here, after the schema and before any handler.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.jsonText === undefined) return done();
    if (request.routeOptions.schema?.body === undefined) return done();
    const body: unknown = request.body;
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return done();
    const message = 'must be a JSON object';
    done(new ApiError('validation_failed', `Invalid body: body ${message}.`, [{ path: 'body', message }]));
  });
}

/**
 * `application/x-www-form-urlencoded`, for the one route that must take it: the SAML Assertion
 * Consumer Service, where the IdP's page posts a form. Install it in that route's own plugin
 * scope only, so every other route keeps answering 415 to anything but JSON.
 */
export function installFormParsing(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    /^application\/x-www-form-urlencoded(\s*;.*)?$/i,
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}
