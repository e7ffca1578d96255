import {
  assertMiddlewareOptions,
  blockResponse,
  challengeResponse,
  decide,
  type MiddlewareRequest,
  type WardenMiddlewareOptions,
  type WardenRequestState,
} from './core.ts';

/** What the hook uses of Fastify's reply. */
export interface FastifyLikeReply {
  code(statusCode: number): FastifyLikeReply;
  header(name: string, value: string): FastifyLikeReply;
  send(payload?: unknown): FastifyLikeReply;
}

export interface WardenFastifyOptions<
  Req extends MiddlewareRequest = MiddlewareRequest,
  Reply extends FastifyLikeReply = FastifyLikeReply,
> extends WardenMiddlewareOptions<Req> {
  /** Called for `challenge` instead of the default 403 `challenge_required` JSON; send a reply. */
  onChallenge?: (request: Req, reply: Reply, state: WardenRequestState) => unknown;
  /** Called for `block` instead of the default 403 (JSON or HTML by Accept); send a reply. */
  onBlock?: (request: Req, reply: Reply, state: WardenRequestState) => unknown;
}

/**
 * A Fastify `preHandler` hook (`{ preHandler: wardenFastify({...}) }` on a route, or
 * `app.addHook('preHandler', …)` in a scope): the body is parsed by then. It reads the browser
 * SDK's token from the form, calls /verify with `request.ip` (Fastify's `trustProxy` decides which
 * address that is), the user agent and your event type and account id, sets `request.warden` and
 * enforces the policy. Fastify parses JSON itself; for urlencoded forms register @fastify/formbody
 * or a parser of your own.
 */
export function wardenFastify<
  Req extends MiddlewareRequest = MiddlewareRequest,
  Reply extends FastifyLikeReply = FastifyLikeReply,
>(options: WardenFastifyOptions<Req, Reply>): (request: Req, reply: Reply) => Promise<unknown> {
  assertMiddlewareOptions(options as WardenMiddlewareOptions<never>, 'wardenFastify');
  return async (request, reply) => {
    const state = await decide(request, options);
    (request as Req & { warden?: WardenRequestState }).warden = state;
    if (state.enforcement === 'allow') return undefined;
    if (state.enforcement === 'challenge' && options.onChallenge) {
      await options.onChallenge(request, reply, state);
      return reply;
    }
    if (state.enforcement === 'block' && options.onBlock) {
      await options.onBlock(request, reply, state);
      return reply;
    }
    const answer =
      state.enforcement === 'challenge'
        ? challengeResponse(state)
        : blockResponse(state, request.headers.accept);
    return reply.code(answer.status).header('content-type', answer.contentType).send(answer.body);
  };
}
