import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../../server/src/testing/accounts.ts';
import type { TestApp } from '../../../server/src/testing/context.ts';
import { createScoringTestApp, fakeEngine } from '../../../server/src/testing/scoring-app.ts';
import { Warden } from '../client.ts';
import type { EventType } from '../types.ts';
import type { MiddlewareRequest, WardenRequestState } from './core.ts';
import { wardenExpress } from './express.ts';
import { wardenFastify } from './fastify.ts';

/**
 * Real Express and Fastify apps in front of a real Warden (its scoring routes on port 0, with the
 * predictable engine: the score is the order amount, so the form chooses the action: < 30 allow,
 * < 60 review, < 85 challenge, else block). The engine's calls show the context Warden received.
 */
const engine = fakeEngine();
let warden: TestApp;
let client: Warden;

type FormRequest = MiddlewareRequest & { body: Record<string, string>; warden?: WardenRequestState };

type FastifyFormRequest = FastifyRequest<{ Body: Record<string, string> }>;

function options<R extends { body: Record<string, string> }>(eventType: EventType = 'checkout') {
  return {
    warden: client,
    eventType,
    accountId: (req: R) => req.body.account ?? 'anonymous',
    context: (req: R) => ({ order_amount: Number(req.body.amount ?? 0) }),
  };
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function post(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'ShopBrowser/1.0',
      ...headers,
    },
    body: new URLSearchParams(form).toString(),
  });
}

beforeAll(async () => {
  warden = await createScoringTestApp({ services: { engine } });
  const { site } = await createTestWorkspace(warden.ctx);
  await warden.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (warden.app.server.address() as AddressInfo).port;
  client = new Warden({
    baseUrl: `http://127.0.0.1:${port}`,
    siteKey: site.siteKey,
    secretKey: site.secretKey,
    maxRetries: 0,
  });
});

afterAll(async () => {
  await warden?.close();
});

describe('wardenExpress', () => {
  let server: http.Server;
  let base: string;
  const challenged: string[] = [];

  beforeAll(async () => {
    const app = express();
    app.set('trust proxy', 'loopback');
    app.use(express.urlencoded({ extended: false }));
    app.post(
      '/checkout',
      wardenExpress<FormRequest>({
        ...options(),
        onChallenge: (req, res, _next, state) => {
          challenged.push(req.body.account ?? '');
          res.statusCode = 401;
          res.setHeader('content-type', 'text/plain');
          res.end(`solve ${state.decision?.challenge?.challenge_id}`);
        },
      }),
      (req, res) => {
        const state = (req as unknown as FormRequest).warden;
        res.json({ ok: true, action: state?.decision?.action, enforcement: state?.enforcement });
      },
    );
    app.post('/login', wardenExpress<FormRequest>(options('login')), (_req, res) => {
      res.json({ ok: true });
    });
    server = http.createServer(app);
    base = await listen(server);
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the trusted context (IP by trust proxy, user agent, event type, account, token) and lets allow through', async () => {
    engine.calls.length = 0;
    const res = await post(
      `${base}/checkout`,
      { account: 'acct_express', amount: '10', warden_token: 'tok_express' },
      { 'x-forwarded-for': '198.51.100.23' },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, action: 'allow', enforcement: 'allow' });
    const input = engine.calls.at(-1);
    expect(input?.request.context).toMatchObject({
      event_type: 'checkout',
      account_id: 'acct_express',
      ip_address: '198.51.100.23',
      user_agent: 'ShopBrowser/1.0',
      order_amount: 10,
    });
    expect(input?.request.token).toBe('tok_express');
  });

  it('lets review through with the decision attached', async () => {
    const res = await post(`${base}/checkout`, { account: 'a', amount: '45' });
    expect(await res.json()).toEqual({ ok: true, action: 'review', enforcement: 'allow' });
  });

  it('calls the challenge hook', async () => {
    const res = await post(`${base}/checkout`, { account: 'acct_challenged', amount: '70' });
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('solve ch_fake');
    expect(challenged).toEqual(['acct_challenged']);
  });

  it('blocks with 403 JSON in the error envelope, or an HTML page for a browser', async () => {
    const json = await post(`${base}/login`, { account: 'a', amount: '95' }, { accept: 'application/json' });
    expect(json.status).toBe(403);
    const body = await json.json();
    expect(body).toEqual({
      success: false,
      error: {
        code: 'request_blocked',
        message: 'This request was blocked.',
        request_id: expect.any(String),
      },
    });
    const page = await post(`${base}/login`, { account: 'a', amount: '95' }, { accept: 'text/html,*/*' });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<h1>Request blocked</h1>');
  });

  it('answers challenge_required with the challenge when the app gave no hook', async () => {
    const res = await post(`${base}/login`, { account: 'a', amount: '70' });
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.error.code).toBe('challenge_required');
    expect(body.error.challenge.challenge_id).toBe('ch_fake');
  });

  it('fails open with the error attached when Warden cannot be reached', async () => {
    const down = new Warden({ baseUrl: 'http://127.0.0.1:9', siteKey: 'pk', secretKey: 'sk', maxRetries: 0 });
    const app = express();
    app.use(express.urlencoded({ extended: false }));
    app.post('/x', wardenExpress<FormRequest>({ ...options(), warden: down }), (req, res) => {
      res.json({ error: (req as unknown as FormRequest).warden?.error?.code });
    });
    const srv = http.createServer(app);
    const url = await listen(srv);
    const res = await post(`${url}/x`, { account: 'a' });
    expect(res.status).toBe(200);
    expect((await res.json()).error).toMatch(/^(connection_refused|network_error)$/);
    await new Promise<void>((resolve) => srv.close(() => resolve()));
  });

  it('rejects incomplete options naming the missing one', () => {
    expect(() => wardenExpress({ warden: client, eventType: 'login' } as never)).toThrow(
      'wardenExpress(options): options.accountId is required (a function of the request).',
    );
  });
});

describe('wardenFastify', () => {
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = Fastify({ trustProxy: '127.0.0.1' });
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    app.post<{ Body: Record<string, string> }>(
      '/signup',
      {
        preHandler: wardenFastify<FastifyFormRequest>({
          ...options<FastifyFormRequest>('signup'),
          onChallenge: (_request, reply, state) =>
            reply.code(429).send({ solve: state.decision?.challenge?.challenge_id }),
        }),
      },
      async (request) => {
        const state = (request as unknown as FormRequest).warden;
        return { ok: true, action: state?.decision?.action, device: state?.decision?.device_id };
      },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterAll(() => app.close());

  it('sends the trusted context and lets allow and review through with the decision attached', async () => {
    engine.calls.length = 0;
    const res = await post(
      `${base}/signup`,
      { account: 'acct_fastify', amount: '50', warden_token: 'tok_fastify' },
      { 'x-forwarded-for': '192.0.2.44' },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, action: 'review', device: 'dev_tok_fastify' });
    expect(engine.calls.at(-1)?.request.context).toMatchObject({
      event_type: 'signup',
      account_id: 'acct_fastify',
      ip_address: '192.0.2.44',
      user_agent: 'ShopBrowser/1.0',
    });
  });

  it('calls the challenge hook and blocks with 403 by Accept', async () => {
    const challenged = await post(`${base}/signup`, { account: 'a', amount: '70' });
    expect(challenged.status).toBe(429);
    expect(await challenged.json()).toEqual({ solve: 'ch_fake' });
    const blocked = await post(
      `${base}/signup`,
      { account: 'a', amount: '99' },
      { accept: 'application/json' },
    );
    expect(blocked.status).toBe(403);
    expect((await blocked.json()).error.code).toBe('request_blocked');
    const page = await post(`${base}/signup`, { account: 'a', amount: '99' }, { accept: 'text/html' });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('Request blocked');
  });
});
