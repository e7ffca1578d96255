import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Decision, Warden } from '@warden/node';
import type { BotdVerdict } from '../../e2e/support/botd.ts';
import { PROBE_JS, type ProbeReport } from './probe.ts';

/**
 * The shop of the benchmark: a login page that integrates the browser SDK as docs/browser-sdk.md
 * says (script tag with SRI, `Warden.load({siteKey})`, `protectForm`), and a backend that takes
 * the posted form with `warden_token` and enforces the action of `POST /api/antibot/verify`
 * (through `@warden/node`, with the secret key and the trusted context it observed itself).
 *
 * Beside the integration, the page runs BotD (the open-source peer) and the benchmark's probe
 * (`probe.ts`); both post what they found back here, keyed by the run id in the page URL.
 */
const require = createRequire(import.meta.url);
const BOTD_ESM = fs.readFileSync(
  path.join(path.dirname(require.resolve('@fingerprintjs/botd/package.json')), 'dist/botd.esm.js'),
  'utf8',
);

export interface WardenSite {
  baseUrl: string;
  siteKey: string;
  secretKey: string;
}

export interface VerifyCall {
  token: string | null;
  /** What the SDK wrote into the form: the browser decision's id and action. */
  browserRequestId: string | null;
  browserAction: string | null;
  decision?: Decision;
  error?: string;
}

export interface RunRecord {
  layout?: Layout;
  probe?: ProbeReport;
  botd?: BotdVerdict;
  verify?: VerifyCall;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Layout {
  screenX: number;
  screenY: number;
  outerWidth: number;
  outerHeight: number;
  innerWidth: number;
  innerHeight: number;
  email: Rect;
  password: Rect;
  submit: Rect;
}

const page = (site: WardenSite, integrity: string | undefined, run: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme shop — sign in</title>
<style>
  body { font: 16px system-ui, sans-serif; margin: 0; background: #f6f6f3; }
  header { padding: 18px 40px; background: #223; color: #fff; font-size: 20px; }
  main { display: grid; grid-template-columns: 1fr 420px; gap: 40px; padding: 40px; }
  .promo { background: #fff; padding: 24px; min-height: 420px; }
  form { background: #fff; padding: 28px; display: grid; gap: 26px; align-content: start; }
  label { display: grid; gap: 6px; }
  input { font: inherit; padding: 10px; border: 1px solid #999; }
  button { font: inherit; padding: 12px; background: #235; color: #fff; border: 0; margin-top: 30px; }
</style>
<script src="${site.baseUrl}/sdk/v1/warden.js"${integrity ? ` integrity="${integrity}"` : ''} crossorigin="anonymous"></script>
</head><body>
<header>Acme shop</header>
<main>
  <section class="promo"><h2>Autumn sale</h2><p>Sign in to see your member prices.</p></section>
  <form id="login" method="post" action="/login?run=${encodeURIComponent(run)}">
    <h2>Sign in</h2>
    <label>Email <input id="email" name="email" type="email" autocomplete="off"></label>
    <label>Password <input id="password" name="password" type="password" autocomplete="off"></label>
    <button id="submit" type="submit">Sign in</button>
  </form>
</main>
<script>
  const warden = Warden.load({ siteKey: ${JSON.stringify(site.siteKey)} });
  const form = document.getElementById('login');
  warden.protectForm(form, {
    event_type: 'login',
    account_id: () => form.email.value,
    context: () => ({ email: form.email.value }),
  });
</script>
<script src="/probe.js?run=${encodeURIComponent(run)}"></script>
<script type="module">
  import { load } from '/botd.esm.js';
  let verdict;
  try {
    const botd = await load({ monitoring: false });
    const result = botd.detect();
    const detections = botd.getDetections() || {};
    const detectors = Object.keys(detections).filter((k) => detections[k].bot)
      .map((k) => k.replace(/^detect/, '') + ':' + detections[k].botKind);
    verdict = { bot: result.bot, botKind: result.botKind, detectors };
  } catch (e) {
    verdict = { bot: false, detectors: [], error: String(e) };
  }
  fetch('/botd?run=${encodeURIComponent(run)}', { method: 'POST', body: JSON.stringify(verdict) });
</script>
</body></html>`;

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
      if (body.length > 1_000_000) req.destroy();
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

export interface Shop {
  origin: string;
  /** The page a visit opens. */
  url(run: string): string;
  /** Points the shop at a (new) Warden server and site. */
  use(site: WardenSite): Promise<void>;
  record(run: string): RunRecord;
  /** Resolves with the run's record once `keys` are all present (or after `timeoutMs`). */
  waitFor(run: string, keys: Array<keyof RunRecord>, timeoutMs: number): Promise<RunRecord>;
  stop(): Promise<void>;
}

/** Listens on the first free port of `ports` (loopback). */
export async function startShop(ports: readonly number[]): Promise<Shop> {
  const records = new Map<string, RunRecord>();
  const record = (run: string) => {
    let r = records.get(run);
    if (!r) {
      r = {};
      records.set(run, r);
    }
    return r;
  };
  let site: WardenSite | undefined;
  let client: Warden | undefined;
  let integrity: string | undefined;

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop');
    const run = url.searchParams.get('run') ?? 'none';
    const noStore = { 'cache-control': 'no-store' };
    try {
      if (req.method === 'GET' && url.pathname === '/login') {
        if (!site) throw new Error('the shop has no Warden site yet');
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...noStore })
          .end(page(site, integrity, run));
        return;
      }
      if (req.method === 'GET' && url.pathname === '/probe.js') {
        res.writeHead(200, { 'content-type': 'text/javascript', ...noStore }).end(PROBE_JS);
        return;
      }
      if (req.method === 'GET' && url.pathname === '/botd.esm.js') {
        res.writeHead(200, { 'content-type': 'text/javascript', ...noStore }).end(BOTD_ESM);
        return;
      }
      if (req.method === 'POST' && ['/layout', '/probe', '/botd'].includes(url.pathname)) {
        const body = JSON.parse(await readBody(req));
        const r = record(run);
        if (url.pathname === '/layout') r.layout = body as Layout;
        else if (url.pathname === '/probe') r.probe = body as ProbeReport;
        else r.botd = body as BotdVerdict;
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'POST' && url.pathname === '/login') {
        // The shop's backend: enforce what /verify answers for this token and this request.
        const form = new URLSearchParams(await readBody(req));
        const email = form.get('email') ?? '';
        const call: VerifyCall = {
          token: form.get('warden_token'),
          browserRequestId: form.get('warden_request_id'),
          browserAction: form.get('warden_action'),
        };
        try {
          if (!client) throw new Error('the shop has no Warden site yet');
          call.decision = await client.verify({
            ...(call.token ? { token: call.token } : {}),
            context: {
              event_type: 'login',
              account_id: email || 'anonymous',
              ...(email ? { email } : {}),
              ip_address: (req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''),
              user_agent: req.headers['user-agent'] ?? '',
              request_url: `http://${req.headers.host}${url.pathname}`,
              login_succeeded: true,
            },
          });
        } catch (err) {
          call.error = err instanceof Error ? err.message : String(err);
        }
        record(run).verify = call;
        const action = call.decision?.action ?? 'error';
        const status = action === 'block' ? 403 : 200;
        res
          .writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...noStore })
          .end(`<!doctype html><meta charset="utf-8"><title>${action}</title><p id="result">${action}</p>`);
        return;
      }
      res.writeHead(404).end();
    } catch (err) {
      res.writeHead(500).end(err instanceof Error ? err.message : String(err));
    }
  });

  let port = 0;
  for (const candidate of ports) {
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(candidate, '127.0.0.1', () => resolve(true));
    });
    if (ok) {
      port = candidate;
      break;
    }
  }
  if (port === 0) throw new Error(`no free port for the shop in ${ports[0]}–${ports[ports.length - 1]}`);
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    url: (run) => `${origin}/login?run=${encodeURIComponent(run)}`,
    async use(next) {
      site = next;
      client = new Warden({ baseUrl: next.baseUrl, siteKey: next.siteKey, secretKey: next.secretKey });
      const res = await fetch(`${next.baseUrl}/sdk/v1/integrity.json`);
      const body = (await res.json()) as { files: Record<string, { integrity: string }> };
      integrity = body.files['warden.js']?.integrity;
    },
    record,
    async waitFor(run, keys, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const r = record(run);
        if (keys.every((k) => r[k] !== undefined) || Date.now() > deadline) return r;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
