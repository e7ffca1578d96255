import { type ServerOptions, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { ERROR_CODES, type ErrorCode, errorBody } from '../errors.ts';

/**
 * Node's HTTP server options for the configured timeouts (docs/operations.md, "Timeouts"):
 * `headersTimeout` for the request line and headers, `requestTimeout` for the whole request with
 * its body, `keepAliveTimeout` for an idle connection between requests. Node checks the first two
 * every `connectionsCheckingInterval` (30 s by default): here a quarter of the headers timeout, at
 * most 1 s, so a slow client is cut off close to the documented time.
 */
export function serverTimeouts(http: Config['http']): ServerOptions {
  return {
    requestTimeout: http.requestTimeoutMs,
    headersTimeout: http.headersTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(http.headersTimeoutMs / 4))),
  };
}

const ANSWERS: Record<string, { code: ErrorCode; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    message: 'The request did not arrive in time; the connection is closed.',
  },
  HPE_HEADER_OVERFLOW: {
    code: 'headers_too_large',
    message: 'The request headers are over 16 KiB in total.',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    code: 'payload_too_large',
    message: 'The chunk extensions of the body are over the limit.',
  },
};
const MALFORMED = { code: 'bad_request' as const, message: 'The HTTP request is malformed.' };

/** The raw HTTP answer for an error that happened before Fastify had a request: enveloped JSON. */
export function rawErrorResponse(code: ErrorCode, message: string): string {
  const status = ERROR_CODES[code].status;
  const body = JSON.stringify(errorBody(code, message));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * Fastify's `clientErrorHandler`: errors Node's HTTP parser and timers raise on a connection (a
 * request or headers timeout, headers over 16 KiB, a malformed request) are answered in the SPEC §1
 * envelope, unlike Node's and Fastify's bare answers, and the connection is closed. Nothing is
 * written when a response is already under way on the connection (it would corrupt it).
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = (error.code && ANSWERS[error.code]) || MALFORMED;
  this.log.debug({ code: error.code, answer: answer.code }, 'client error');
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    socket.end(rawErrorResponse(answer.code, answer.message), () => socket.destroy());
  } else {
    socket.destroy();
  }
}
