import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorDetail, errorBody } from '../errors.ts';
import { isStorageFull } from '../storage/storage-space.ts';
import { validationFailed } from './validation.ts';

/**
 * Past the limit, this much more of an oversized body is still read (and dropped) after the 413.
 * Closing at once, as Fastify does, resets a connection the client is still writing to, and many
 * clients (Node's fetch among them) then report a broken pipe instead of the 413 they were sent.
 */
export const OVERSIZED_BODY_DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * 413, then the rest of the body read and dropped, so the connection ends cleanly. Nothing is
 * buffered. A body declared or found larger than the drain allowance still closes the connection.
 */
function tooLarge(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const raw = request.raw;
  const declared = Number(request.headers['content-length'] ?? 0);
  if (!raw.complete && declared <= OVERSIZED_BODY_DRAIN_BYTES) {
    reply.removeHeader('connection');
    let drained = 0;
    raw.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > OVERSIZED_BODY_DRAIN_BYTES) raw.socket.destroy();
    });
    raw.resume();
  }
  return reply
    .status(413)
    .send(errorBody('payload_too_large', 'The request body is over the limit of this route.'));
}

/**
 * Errors Fastify raises while routing, before any hook or handler (its `frameworkErrors` option):
 * answered in the same envelope as every other error. A path segment longer than the router's
 * limit names nothing (404); a path that is not valid percent-encoding is a bad request.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(404).send(errorBody('not_found', 'No resource has an id that long.'));
  } else if (error.code === 'FST_ERR_BAD_URL') {
    const message = 'is not valid percent-encoding';
    reply
      .status(400)
      .send(errorBody('validation_failed', `The URL path ${message}.`, [{ path: 'url', message }]));
  } else {
    reply.status(500).send(errorBody('internal_error', 'Something went wrong on our side.'));
  }
}

/** Seconds a client is told to wait after a write refused for want of space. */
const STORAGE_FULL_RETRY_AFTER_S = 30;

/**
 * The one place where errors become HTTP answers. A write the database refused for want of space
 * is 503 `unavailable` (and `onStorageFull` learns of it: /readyz turns 503 until there is room).
 */
export function installErrorHandling(app: FastifyInstance, onStorageFull?: (err: unknown) => void): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.headers) reply.headers(error.headers);
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(error.status).send(errorBody(error.code, error.message, error.details));
    }
    if (isStorageFull(error)) {
      onStorageFull?.(error);
      request.log.error({ err: error }, 'write refused: the database is full');
      return reply
        .status(503)
        .header('retry-after', String(STORAGE_FULL_RETRY_AFTER_S))
        .send(errorBody('unavailable', 'The database is full: nothing was recorded. Retry later.'));
    }
    // Schema errors are ApiErrors already (http/validation.ts, every route's validator compiler).
    const fe = error as FastifyError;
    switch (fe.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return tooLarge(request, reply);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return reply
          .status(fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 415 : 400)
          .send(
            fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? errorBody('unsupported_media_type', 'Send the body as application/json.')
              : errorBody('validation_failed', 'Content-Length does not match the body.'),
          );
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return reply.status(400).send(errorBody('invalid_json', 'The request body is not valid JSON.'));
    }
    if (fe.statusCode === 413) return tooLarge(request, reply);
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      request.log.info({ err: fe }, 'client error');
      return reply.status(400).send(errorBody('validation_failed', fe.message));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send(errorBody('internal_error', 'Something went wrong on our side.'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(errorBody('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`));
  });
}

interface PropertySchema {
  type?: string | string[];
  anyOf?: PropertySchema[];
  oneOf?: PropertySchema[];
}

function acceptsList(schema: PropertySchema | undefined): boolean {
  if (!schema) return false;
  const types = ([] as Array<string | undefined>).concat(schema.type);
  if (types.includes('array')) return true;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(acceptsList);
}

/**
 * A query parameter given twice arrives as an array. Where the route's schema expects one value,
 * that is a 400 `validation_failed` before anything else reads it: a management route's access
 * checks read its `siteId` before the schema is applied (SPEC §10: 404 → 403 → 400, http/access.ts),
 * and an array is not an id. Undefined when no declared parameter is repeated.
 */
export function repeatedQueryError(request: FastifyRequest): ApiError | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object') return undefined;
  const schema = request.routeOptions.schema?.querystring as
    | { properties?: Record<string, PropertySchema> }
    | undefined;
  const properties = schema?.properties;
  if (!properties) return undefined;
  const details: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value) && name in properties && !acceptsList(properties[name])) {
      details.push({
        path: `querystring.${name}`,
        message: 'must be given once (the parameter is repeated)',
      });
    }
  }
  if (details.length === 0) return undefined;
  return validationFailed(details, 'first', 'querystring');
}

/**
 * The same check for every route, once its inputs passed the schema (a schema that accepts a
 * parameter of any type lets an array through): a repeated single-valued parameter is a 400.
 */
export function installQueryValidation(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    done(repeatedQueryError(request));
  });
}
