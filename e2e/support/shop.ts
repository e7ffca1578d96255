import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Decision,
  type MiddlewareRequest,
  type Warden,
  type WardenRequestState,
  wardenExpress,
  wardenFastify,
} from '@warden/node';
import express from 'express';
import Fastify, { type FastifyRequest } from 'fastify';

/**
 * A shop that integrates Warden the ways the docs propose, one page (and one site) per way. Every
 * page shows the same sign-up form at the same place (FORM_LAYOUT), so one measured layout serves
 * them all; the backend answers the form post as JSON (what it scored and enforced), and keeps it
 * for the test (`posts`).
 *
 * - `protect`: the browser SDK's `protectForm`; the form posts `warden_token` to an Express route
 *   behind `wardenExpress` (docs/browser-sdk.md, docs/node-sdk.md).
 * - `collect`: the page calls `collect` itself, then sends the token to its backend, which calls
 *   `/verify` with it (docs/browser-sdk.md, "collect + server /verify").
 * - `plain`: no script at all; a Fastify route behind `wardenFastify` (no browser token).
 * - `altcha1` / `altcha2`: the official ALTCHA widget 2.x / 3.x alone; the backend passes the
 *   payload to `/verify` as evidence, as docs/altcha.md shows.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ALTCHA_WIDGETS = {
  altcha1: path.join(ROOT, 'node_modules/altcha/dist/altcha.js'),
  altcha2: path.join(ROOT, 'node_modules/altcha3/dist/main/altcha.js'),
} as const;

/** A form post as the middleware sees it, with what it attached. */
type FormRequest = MiddlewareRequest & { body: Record<string, string>; warden?: WardenRequestState };

export type ShopPath = 'protect' | 'collect' | 'plain' | 'altcha1' | 'altcha2';

export interface ShopSite {
  siteKey: string;
  client: Warden;
}

export interface ShopPost {
  path: ShopPath;
  email: string;
  decision?: Decision | undefined;
  enforcement?: string | undefined;
}

export interface Shop {
  url: string;
  posts: ShopPost[];
  /** Pages that said they are ready (loaded; the ALTCHA widget solved). */
  ready: Set<ShopPath>;
  stop(): Promise<void>;
}

const STYLE = `body { margin: 0; font: 16px sans-serif; }
form { position: absolute; left: 360px; top: 140px; width: 360px; }
label { display: block; margin: 0 0 18px; }
input[name=email], input[name=password] { display: block; width: 340px; height: 36px; font-size: 16px; }
altcha-widget { display: block; margin: 0 0 18px; }
button { width: 180px; height: 44px; font-size: 16px; }`;

function page(title: string, head: string, widget: string, script: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>${STYLE}</style>${head}</head>
<body><form id="signup" method="post" action="">
  <label>E-mail <input id="email" name="email" type="email" autocomplete="off"></label>
  <label>Password <input id="password" name="password" type="password" autocomplete="off"></label>
  ${widget}
  <button id="submit" type="submit">Create account</button>
</form><pre id="out"></pre>
<script>${script}</script></body></html>`;
}

/** Tells the shop the page is ready (the test waits for it before the person starts). */
const READY = (name: ShopPath, when = 'true') =>
  `(function wait() { if (${when}) fetch('/ready/${name}', { method: 'POST' }); else setTimeout(wait, 100); })();`;

function sdkHead(wardenUrl: string): string {
  return `<script src="${wardenUrl}/sdk/v1/warden.js"></script>`;
}

export async function startShop(wardenUrl: string, sites: Record<ShopPath, ShopSite>): Promise<Shop> {
  const posts: ShopPost[] = [];
  const ready = new Set<ShopPath>();
  const app = express();
  app.set('trust proxy', 'loopback');
  app.use(express.urlencoded({ extended: false }));
  app.use(express.json());
  app.post('/ready/:name', (req, res) => {
    ready.add(req.params.name as ShopPath);
    res.status(204).end();
  });
  const done = (p: ShopPost, res: express.Response) => {
    posts.push(p);
    res.json(p);
  };
  const userAgent = (req: express.Request) => req.get('user-agent') ?? '';

  // protectForm, then the Express middleware with the browser token.
  app.get('/protect', (_req, res) =>
    res.type('html').send(
      page(
        'Shop: protectForm',
        sdkHead(wardenUrl),
        '',
        `const form = document.getElementById('signup');
form.action = '/protect/signup';
const warden = Warden.load({ siteKey: ${JSON.stringify(sites.protect.siteKey)}, endpoint: ${JSON.stringify(wardenUrl)} });
warden.protectForm(form, { event_type: 'signup', account_id: () => form.email.value });
warden.fingerprint().then(() => { ${READY('protect')} });`,
      ),
    ),
  );
  app.post(
    '/protect/signup',
    wardenExpress<FormRequest>({
      warden: sites.protect.client,
      eventType: 'signup',
      accountId: (req) => req.body.email ?? '',
    }),
    (req, res) => {
      const form = req as unknown as FormRequest;
      done(
        {
          path: 'protect',
          email: form.body.email ?? '',
          decision: form.warden?.decision,
          enforcement: form.warden?.enforcement,
        },
        res,
      );
    },
  );

  // collect in the page, then the backend's /verify with the page's token.
  app.get('/collect', (_req, res) =>
    res.type('html').send(
      page(
        'Shop: collect + verify',
        sdkHead(wardenUrl),
        '',
        `const form = document.getElementById('signup');
const warden = Warden.load({ siteKey: ${JSON.stringify(sites.collect.siteKey)}, endpoint: ${JSON.stringify(wardenUrl)} });
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const email = form.email.value;
  const browser = await warden.collect({ event_type: 'signup', account_id: email, email });
  const { token } = await warden.fingerprint();
  const res = await fetch('/collect/signup', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, token, browser_action: browser.action }) });
  document.getElementById('out').textContent = await res.text();
});
warden.fingerprint().then(() => { ${READY('collect')} });`,
      ),
    ),
  );
  app.post('/collect/signup', async (req, res) => {
    const decision = await sites.collect.client.verify({
      token: req.body.token,
      context: {
        event_type: 'signup',
        account_id: req.body.email,
        email: req.body.email,
        ip_address: req.ip ?? '',
        user_agent: userAgent(req),
      },
    });
    done({ path: 'collect', email: req.body.email, decision, enforcement: decision.action }, res);
  });

  // The ALTCHA widget alone, the payload as evidence of a decision (docs/altcha.md).
  for (const name of ['altcha1', 'altcha2'] as const) {
    const attribute = name === 'altcha1' ? 'challengeurl' : 'challenge';
    const route = name === 'altcha1' ? '/api/antibot/altcha/challenge' : '/api/antibot/altcha/v2/challenge';
    app.get(`/${name}/widget.js`, (_req, res) => res.type('text/javascript').sendFile(ALTCHA_WIDGETS[name]));
    app.get(`/${name}`, (_req, res) =>
      res.type('html').send(
        page(
          `Shop: ALTCHA ${name}`,
          `<script type="module" src="/${name}/widget.js"></script>`,
          `<altcha-widget ${attribute}="${wardenUrl}${route}?sitekey=${encodeURIComponent(sites[name].siteKey)}" auto="onload"></altcha-widget>`,
          `document.getElementById('signup').action = '/${name}/signup';
${READY(name, `document.querySelector('input[name="altcha"]') && document.querySelector('input[name="altcha"]').value`)}`,
        ),
      ),
    );
    app.post(`/${name}/signup`, async (req, res) => {
      const decision = await sites[name].client.verify({
        context: {
          event_type: 'signup',
          account_id: req.body.email,
          email: req.body.email,
          ip_address: req.ip ?? '',
          user_agent: userAgent(req),
        },
        environment: { pow: { altcha: req.body.altcha } },
      });
      done({ path: name, email: req.body.email, decision, enforcement: decision.action }, res);
    });
  }

  // The Node middleware without a browser token: a Fastify app behind the same address.
  const fastify = Fastify({ trustProxy: '127.0.0.1' });
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, next) => next(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  type FastifyFormRequest = FastifyRequest<{ Body: Record<string, string> }>;
  fastify.get('/plain', async (_req, reply) =>
    reply
      .type('text/html')
      .send(
        page(
          'Shop: server only',
          '',
          '',
          `document.getElementById('signup').action = '/plain/signup';\n${READY('plain')}`,
        ),
      ),
  );
  fastify.post('/ready/plain', async (_req, reply) => {
    ready.add('plain');
    return reply.code(204).send();
  });
  fastify.post<{ Body: Record<string, string> }>(
    '/plain/signup',
    {
      preHandler: wardenFastify<FastifyFormRequest>({
        warden: sites.plain.client,
        eventType: 'signup',
        accountId: (request) => request.body.email ?? '',
      }),
    },
    async (request) => {
      const state = (request as unknown as FormRequest).warden;
      const p: ShopPost = {
        path: 'plain',
        email: request.body.email ?? '',
        decision: state?.decision,
        enforcement: state?.enforcement,
      };
      posts.push(p);
      return p;
    },
  );
  await fastify.ready();

  // One server: /plain… goes to Fastify, everything else to Express.
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/plain') || req.url === '/ready/plain') fastify.routing(req, res);
    else app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    ready,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fastify.close();
    },
  };
}
