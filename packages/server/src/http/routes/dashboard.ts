import fs from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { AssetCache } from '../../asset-cache.ts';
import { PACKAGES_DIR } from '../../paths.ts';
import type { App } from '../types.ts';

/**
 * The dashboard (`/dashboard/…`, React + Vite, built into packages/dashboard/dist). Hashed files
 * under `assets/` are cached for a year; every other path that is not a built file gets
 * index.html (no-cache), so the client router owns `/dashboard/decisions/…` and reloads work. A
 * missing build answers 503 with the command that makes it.
 */
const DASHBOARD_DIST = path.join(PACKAGES_DIR, 'dashboard', 'dist');

export const DASHBOARD_NOT_BUILT = 'dashboard not built: run npm run build\n';

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';
const TEXT = 'text/plain; charset=utf-8';

/** The page may only talk to this server; no inline script, no framing. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/**
 * The built file a `/dashboard/<rest>` path names, or why not: `invalid` for traversal, NUL,
 * backslashes and undecodable paths (refused), `none` when it is not a file of the build.
 */
export function resolveDashboardPath(
  dist: string,
  rest: string,
): { kind: 'file'; file: string } | { kind: 'invalid' } | { kind: 'none' } {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return { kind: 'invalid' };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'invalid' };
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..' || s === '.')) return { kind: 'invalid' };
  const file = path.resolve(dist, decoded);
  if (file !== dist.replace(/\/$/, '') && !file.startsWith(dist.endsWith('/') ? dist : `${dist}/`)) {
    return { kind: 'invalid' };
  }
  if (decoded === '' || decoded.endsWith('/')) return { kind: 'none' };
  try {
    if (!fs.statSync(file).isFile()) return { kind: 'none' };
  } catch {
    return { kind: 'none' };
  }
  return { kind: 'file', file };
}

/** What the dashboard routes serve from: the process's asset cache. */
export interface DashboardDeps {
  readonly assets: Pick<AssetCache, 'read'>;
}

export function dashboardRoutes(dist: string = DASHBOARD_DIST) {
  return async function routes(app: App, deps: DashboardDeps): Promise<void> {
    const hide = { schema: { hide: true } };

    app.get('/dashboard', hide, async (_request, reply) => reply.redirect('/dashboard/', 302));
    // The server's root is the dashboard: what a person opening the bare address wants.
    app.get('/', hide, async (_request, reply) => reply.redirect('/dashboard/', 302));

    const asset = { schema: { hide: true, params: Type.Object({ '*': Type.String() }) } };
    app.get('/dashboard/*', asset, async (request, reply) => {
      const rest = (request.raw.url ?? '').split('?')[0]!.slice('/dashboard/'.length);
      const target = resolveDashboardPath(dist, rest);
      if (target.kind === 'invalid') return reply.code(400).type(TEXT).send('Bad path\n');
      reply.header('x-content-type-options', 'nosniff');
      if (target.kind === 'file' && !target.file.endsWith(`${path.sep}index.html`)) {
        const asset = deps.assets.read(target.file);
        if (!asset) return reply.code(404).type(TEXT).send('Not found\n');
        const hashed = rest.startsWith('assets/');
        reply.header('cache-control', hashed ? IMMUTABLE : 'public, max-age=3600').header('etag', asset.etag);
        if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
        return reply.type(TYPES[path.extname(target.file)] ?? 'application/octet-stream').send(asset.body);
      }
      // A missing hashed asset is a 404 (an old tab after a deploy), never the page.
      if (rest.startsWith('assets/')) return reply.code(404).type(TEXT).send('Not found\n');
      const page = deps.assets.read(path.join(dist, 'index.html'));
      if (!page) return reply.code(503).type(TEXT).send(DASHBOARD_NOT_BUILT);
      return reply
        .header('cache-control', 'no-cache')
        .header('content-security-policy', CSP)
        .header('referrer-policy', 'no-referrer')
        .header('x-frame-options', 'DENY')
        .type('text/html; charset=utf-8')
        .send(page.body);
    });
  };
}

export const dashboardArea = dashboardRoutes();
