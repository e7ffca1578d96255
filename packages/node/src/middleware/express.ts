import {
  assertMiddlewareOptions,
  type BlockResponse,
  blockResponse,
  challengeResponse,
  decide,
  type MiddlewareRequest,
  type WardenMiddlewareOptions,
  type WardenRequestState,
} from './core.ts';

/** What the middleware uses of Express's response (node's ServerResponse has it too). */
export interface ExpressLikeMiddlewareResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body: string): unknown;
}

export type ExpressNext = (err?: unknown) => void;

export interface WardenExpressOptions<
  Req extends MiddlewareRequest = MiddlewareRequest,
  Res extends ExpressLikeMiddlewareResponse = ExpressLikeMiddlewareResponse,
> extends WardenMiddlewareOptions<Req> {
  /** Called for `challenge` instead of the default 403 `challenge_required` JSON (e.g. render a page). */
  onChallenge?: (req: Req, res: Res, next: ExpressNext, state: WardenRequestState) => void;
  /** Called for `block` instead of the default 403 (JSON or HTML by Accept). */
  onBlock?: (req: Req, res: Res, next: ExpressNext, state: WardenRequestState) => void;
}

function send(res: ExpressLikeMiddlewareResponse, answer: BlockResponse): void {
  res.statusCode = answer.status;
  res.setHeader('content-type', answer.contentType);
  res.end(answer.body);
}

/**
 * Express middleware: put it after a body parser (`express.urlencoded()` / `express.json()`) on
 * the routes to protect. It reads the browser SDK's token from the form, calls /verify with
 * `req.ip` (Express's `trust proxy` decides which address that is), the user agent and your event
 * type and account id, sets `req.warden` and enforces the policy.
 */
export function wardenExpress<
  Req extends MiddlewareRequest = MiddlewareRequest,
  Res extends ExpressLikeMiddlewareResponse = ExpressLikeMiddlewareResponse,
>(options: WardenExpressOptions<Req, Res>): (req: Req, res: Res, next: ExpressNext) => void {
  assertMiddlewareOptions(options as WardenMiddlewareOptions<never>, 'wardenExpress');
  return (req, res, next) => {
    decide(req, options).then((state) => {
      (req as Req & { warden?: WardenRequestState }).warden = state;
      if (state.enforcement === 'allow') return next();
      if (state.enforcement === 'challenge') {
        return options.onChallenge
          ? options.onChallenge(req, res, next, state)
          : send(res, challengeResponse(state));
      }
      return options.onBlock
        ? options.onBlock(req, res, next, state)
        : send(res, blockResponse(state, req.headers.accept));
    }, next);
  };
}
