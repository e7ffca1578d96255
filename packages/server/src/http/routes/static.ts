import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { AssetCache } from '../../asset-cache.ts';
import { PACKAGES_DIR } from '../../paths.ts';
import type { App } from '../types.ts';

/**
 * The browser SDK (`/sdk/v1/…`, built into packages/browser/dist) and the demo shop (`/demo`).
 * Not API results: no envelope. Files are re-read when they change on disk, so a rebuild needs
 * no restart; an unbuilt SDK answers 503 with the command that builds it.
 */
const BROWSER = path.join(PACKAGES_DIR, 'browser');
const DIST = path.join(BROWSER, 'dist');
const DEMO = path.join(BROWSER, 'demo');

const JS = 'application/javascript; charset=utf-8';
const SDK_FILES: Record<string, string> = {
  'warden.js': JS,
  'warden.mjs': JS,
  'warden-worker.js': JS,
  'sha256.wasm': 'application/wasm',
};
const SDK_CACHE = 'public, max-age=3600, stale-while-revalidate=86400';

const NOT_BUILT =
  'Warden browser SDK is not built. Run `npm run build:browser` (npm install does it) and reload.\n';

/** What the static routes serve from: the asset cache, and the demo site's key for the demo page. */
export interface StaticDeps {
  readonly assets: Pick<AssetCache, 'read'>;
  demoSiteKey(): Promise<string | undefined>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function staticRoutes(app: App, deps: StaticDeps): Promise<void> {
  const hide = { schema: { hide: true } };

  const sdkFile = { schema: { hide: true, params: Type.Object({ file: Type.String() }) } };
  app.get('/sdk/v1/:file', sdkFile, async (request, reply) => {
    const { file } = request.params;
    if (file === 'integrity.json') {
      const out: Record<string, { integrity: string; size: number }> = {};
      for (const name of Object.keys(SDK_FILES)) {
        const a = deps.assets.read(path.join(DIST, name));
        if (a) out[name] = { integrity: a.integrity, size: a.body.length };
      }
      if (!out['warden.js']) return reply.code(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
      return reply
        .header('cache-control', 'no-cache')
        .header('access-control-allow-origin', '*')
        .send({ version: 'v1', files: out });
    }
    const type = SDK_FILES[file];
    if (!type) return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
    const asset = deps.assets.read(path.join(DIST, file));
    if (!asset) return reply.code(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
    reply
      .header('cache-control', SDK_CACHE)
      .header('etag', asset.etag)
      .header('x-warden-integrity', asset.integrity)
      // Cross-origin <script integrity crossorigin> and the worker fetch need CORS.
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('x-content-type-options', 'nosniff');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.type(type).send(asset.body);
  });

  app.get('/demo', hide, async (_request, reply) => {
    const page = deps.assets.read(path.join(DEMO, 'index.html'));
    if (!page) return reply.code(404).type('text/plain; charset=utf-8').send('Demo page missing\n');
    const siteKey = await deps.demoSiteKey();
    const sdk = deps.assets.read(path.join(DIST, 'warden.js'));
    const html = page.body
      .toString('utf8')
      .replace('{{SITE_KEY}}', escapeHtml(siteKey ?? ''))
      .replace('{{SDK_INTEGRITY}}', escapeHtml(sdk?.integrity ?? ''))
      .replace(
        '{{NOTICE}}',
        siteKey ? '' : 'No demo workspace is seeded: start the server with the demo seed.',
      );
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  });

  app.get('/demo/demo.js', hide, async (_request, reply) => {
    const script = deps.assets.read(path.join(DEMO, 'demo.js'));
    if (!script) return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
    return reply.header('cache-control', 'no-cache').header('etag', script.etag).type(JS).send(script.body);
  });
}
