import type { Warden } from '../client.ts';
import { WardenError } from '../errors.ts';
import type { Decision, EventType, VerificationContext } from '../types.ts';

type MaybePromise<T> = T | Promise<T>;

/** What the app does with a decision: `allow` calls the next handler. */
export type Enforcement = 'allow' | 'block' | 'challenge';

/** The request as both frameworks present it after body parsing. */
export interface MiddlewareRequest {
  /** The client IP as the framework computes it from its trusted-proxy setting. */
  ip?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

/** Attached to the request as `req.warden` (Express) / `request.warden` (Fastify). */
export interface WardenRequestState {
  /** The decision, or undefined when Warden could not be asked (see `error`). */
  decision?: Decision;
  /** What the middleware did with it. */
  enforcement: Enforcement;
  /** Set when the /verify call failed (the request then went on: fail open). */
  error?: WardenError;
}

export interface WardenMiddlewareOptions<Req extends MiddlewareRequest = MiddlewareRequest> {
  /** The configured client (site key and secret key). */
  warden: Warden;
  /** The event this route scores, or a function of the request. */
  eventType: EventType | ((req: Req) => EventType);
  /** Your stable id of the account the event concerns (the email or user id for a login). */
  accountId: (req: Req) => MaybePromise<string>;
  /** More trusted context from your app (email, order_amount, payment_hash, promo_code, …). */
  context?: (req: Req) => MaybePromise<Partial<VerificationContext>>;
  /** The form field with the browser SDK's token (protectForm's `warden_token`). */
  tokenField?: string;
  /** Your policy. Default: allow and review → `allow`, challenge → `challenge`, block → `block`. */
  policy?: (decision: Decision, req: Req) => Enforcement;
}

export const DEFAULT_TOKEN_FIELD = 'warden_token';

export function assertMiddlewareOptions(options: WardenMiddlewareOptions<never>, name: string): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${name}(options): options must be an object with warden, eventType and accountId.`);
  }
  if (!options.warden || typeof options.warden.verify !== 'function') {
    throw new TypeError(`${name}(options): options.warden is required (a Warden client from @warden/node).`);
  }
  if (typeof options.eventType !== 'string' && typeof options.eventType !== 'function') {
    throw new TypeError(`${name}(options): options.eventType is required (e.g. 'login').`);
  }
  if (typeof options.accountId !== 'function') {
    throw new TypeError(`${name}(options): options.accountId is required (a function of the request).`);
  }
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function tokenOf(body: unknown, field: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function defaultPolicy(decision: Decision): Enforcement {
  if (decision.action === 'block') return 'block';
  if (decision.action === 'challenge') return 'challenge';
  return 'allow';
}

/**
 * Scores the request with the trusted context (IP from the framework, user agent, the app's event
 * type and account id) and applies the policy. A failed /verify call goes on (fail open) with the
 * error attached, so an outage of Warden never takes the form down; check `state.error` where
 * you want to fail closed.
 */
export async function decide<Req extends MiddlewareRequest>(
  req: Req,
  options: WardenMiddlewareOptions<Req>,
): Promise<WardenRequestState> {
  const eventType = typeof options.eventType === 'function' ? options.eventType(req) : options.eventType;
  const extra = options.context ? await options.context(req) : {};
  const context: VerificationContext = {
    ...extra,
    event_type: eventType,
    account_id: await options.accountId(req),
  };
  if (req.ip) context.ip_address = req.ip;
  const userAgent = firstHeader(req.headers['user-agent']);
  if (userAgent) context.user_agent = userAgent;
  const token = tokenOf(req.body, options.tokenField ?? DEFAULT_TOKEN_FIELD);
  try {
    const decision = await options.warden.verify(token ? { token, context } : { context });
    return { decision, enforcement: (options.policy ?? defaultPolicy)(decision, req) };
  } catch (err) {
    if (!(err instanceof WardenError)) throw err;
    return { enforcement: 'allow', error: err };
  }
}

/** Whether the client prefers an HTML page to JSON (a browser's form post does). */
export function prefersHtml(accept: string | string[] | undefined): boolean {
  const header = (firstHeader(accept) ?? '').toLowerCase();
  const html = header.indexOf('text/html');
  const json = header.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}

export interface BlockResponse {
  status: 403;
  contentType: string;
  body: string;
}

/** The 403 for a blocked request: SPEC §1 envelope as JSON, or a short page for browsers. */
export function blockResponse(
  state: WardenRequestState,
  accept: string | string[] | undefined,
): BlockResponse {
  const requestId = state.decision?.request_id ?? '';
  if (prefersHtml(accept)) {
    return {
      status: 403,
      contentType: 'text/html; charset=utf-8',
      body:
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Request blocked</title></head>' +
        '<body><h1>Request blocked</h1><p>This request was blocked by our fraud protection. ' +
        `If you think this is a mistake, contact support and quote <code>${escapeHtml(requestId)}</code>.</p>` +
        '</body></html>',
    };
  }
  return {
    status: 403,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify({
      success: false,
      error: { code: 'request_blocked', message: 'This request was blocked.', request_id: requestId },
    }),
  };
}

/** The default answer to a challenge when the app gave no hook: 403 with the challenge to solve. */
export function challengeResponse(state: WardenRequestState): BlockResponse {
  return {
    status: 403,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify({
      success: false,
      error: {
        code: 'challenge_required',
        message: 'Solve the proof-of-work challenge and submit again.',
        request_id: state.decision?.request_id ?? '',
        challenge: state.decision?.challenge ?? null,
      },
    }),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
