import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderBag, ReceiverAnswer, WebhookReceiver } from './receiver.ts';

/** Deliveries are a few KiB; anything far larger is not a Warden delivery. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The body, or null as soon as it passes `limit` (the rest is read and dropped, not kept). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] | null = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (chunks === null) return;
      size += chunk.length;
      if (size > limit) {
        chunks = null;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks === null ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendNode(res: ServerResponse, answer: ReceiverAnswer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
}

/** node:http: `http.createServer(nodeHttpHandler(receiver))` or call it from your own router. */
export function nodeHttpHandler(receiver: WebhookReceiver, options: { maxBodyBytes?: number } = {}) {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    readBody(req, limit)
      .then(async (raw) => {
        if (raw === null) {
          // Answer first, then drop the connection: the sender reads 413, not a reset.
          res.on('finish', () => req.destroy());
          res
            .writeHead(413, { 'content-type': 'application/json', connection: 'close' })
            .end(JSON.stringify({ received: false, error: 'body too large' }));
          return;
        }
        sendNode(res, await receiver.handle({ rawBody: raw, headers: req.headers }));
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  };
}

/** The parts of Express's request and response the adapter uses (no express dependency). */
export interface ExpressLikeRequest {
  body?: unknown;
  headers: HeaderBag;
}
export interface ExpressLikeResponse {
  status(code: number): ExpressLikeResponse;
  json(body: unknown): unknown;
}

/**
 * Express: mount with the raw body, never express.json(), or the signature cannot be checked:
 * `app.post('/webhooks/warden', express.raw({ type: 'application/json' }), expressHandler(receiver))`.
 */
export function expressHandler(receiver: WebhookReceiver) {
  return async (req: ExpressLikeRequest, res: ExpressLikeResponse): Promise<void> => {
    if (!(req.body instanceof Uint8Array) && typeof req.body !== 'string') {
      // Unsigned: the receiver's 401, whatever the body (interface 6.5 rule 1).
      if (!req.headers['service-signature']) {
        const answer = await receiver.handle({ rawBody: '', headers: req.headers });
        res.status(answer.status).json(answer.body);
        return;
      }
      // Misconfigured (parsed JSON): refuse without acknowledging, so Warden retries after the fix.
      res
        .status(500)
        .json({ received: false, error: 'mount express.raw({ type: "application/json" }) on this route' });
      return;
    }
    const answer = await receiver.handle({ rawBody: req.body, headers: req.headers });
    res.status(answer.status).json(answer.body);
  };
}

/** The parts of a Fastify instance the plugin uses (no fastify dependency). */
export interface FastifyLikeReply {
  code(status: number): FastifyLikeReply;
  send(body: unknown): unknown;
}
export interface FastifyLikeInstance {
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer' },
    parser: (req: unknown, body: Buffer, done: (err: Error | null, body?: unknown) => void) => void,
  ): void;
  post(
    path: string,
    handler: (request: { body: unknown; headers: HeaderBag }, reply: FastifyLikeReply) => Promise<unknown>,
  ): unknown;
}

/**
 * Fastify: `app.register(fastifyWebhookPlugin(receiver, { path: '/webhooks/warden' }))`. The plugin is
 * encapsulated: its JSON parser keeps the raw bytes for this route only.
 */
export function fastifyWebhookPlugin(receiver: WebhookReceiver, options: { path: string }) {
  return async (instance: FastifyLikeInstance): Promise<void> => {
    // Every media type as raw bytes: the signature is checked first, so an unsigned request of any
    // type gets 401 (not Fastify's 415).
    for (const type of ['application/json', '*'])
      instance.addContentTypeParser(type, { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    instance.post(options.path, async (request, reply) => {
      const raw = request.body;
      const rawBody = raw instanceof Uint8Array || typeof raw === 'string' ? raw : '';
      const answer = await receiver.handle({ rawBody, headers: request.headers });
      return reply.code(answer.status).send(answer.body);
    });
  };
}
