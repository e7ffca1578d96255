import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestApp, testAppOf } from '../../testing/context.ts';
import { createFastify } from '../app.ts';
import { DASHBOARD_NOT_BUILT, dashboardRoutes, resolveDashboardPath } from './dashboard.ts';

/** An app serving a fixture build (or none), so these checks do not need `npm run build`. */
async function appWith(dist: string): Promise<TestApp> {
  const ctx = await createTestContext();
  const app = createFastify(ctx);
  await app.register(async (scope) => dashboardRoutes(dist)(scope, { assets: ctx.services.assets }));
  await app.ready();
  return testAppOf(app, ctx);
}

describe('dashboard serving', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-dashboard-'));
  let t: TestApp;
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dist, 'assets', 'index-AbC123.css'), 'body{}');
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
    fs.writeFileSync(path.join(os.tmpdir(), 'warden-dashboard-secret.txt'), 'secret');
    t = await appWith(dist);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('redirects /dashboard and the server root to /dashboard/', async () => {
    for (const url of ['/dashboard', '/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/dashboard/');
    }
  });

  it('serves index.html without caching, with a strict CSP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.body).toContain('id="root"');
  });

  it('falls back to index.html for client routes, with or without a query', async () => {
    for (const url of ['/dashboard/decisions/abc', '/dashboard/rules/new?x=1', '/dashboard/sso-callback']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toContain('id="root"');
    }
  });

  it('serves hashed assets as immutable, with their type and an ETag', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard/assets/index-AbC123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/javascript');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe('console.log(1)');
    const again = await t.app.inject({
      method: 'GET',
      url: '/dashboard/assets/index-AbC123.js',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const css = await t.app.inject({ method: 'GET', url: '/dashboard/assets/index-AbC123.css' });
    expect(css.headers['content-type']).toContain('text/css');
    const icon = await t.app.inject({ method: 'GET', url: '/dashboard/favicon.svg' });
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).not.toContain('immutable');
  });

  it('answers 404 for a missing asset instead of the page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard/assets/index-old.js' });
    expect(res.statusCode).toBe(404);
  });

  it('refuses path traversal', async () => {
    for (const url of [
      '/dashboard/..%2F..%2Fwarden-dashboard-secret.txt',
      '/dashboard/%2e%2e/%2e%2e/etc/passwd',
      '/dashboard/assets/..%5C..%5Cindex.html',
      '/dashboard/%00',
      '/dashboard/%E0%A4%A',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      // 400 from this route; a URL the HTTP layer already normalises out of /dashboard is a 404.
      expect([400, 404], url).toContain(res.statusCode);
      expect(res.body).not.toContain('secret');
      expect(res.body).not.toContain('root:');
    }
    expect(resolveDashboardPath(dist, '../x')).toEqual({ kind: 'invalid' });
    expect(resolveDashboardPath(dist, 'assets/index-AbC123.js')).toEqual({
      kind: 'file',
      file: path.join(dist, 'assets', 'index-AbC123.js'),
    });
    expect(resolveDashboardPath(dist, 'assets')).toEqual({ kind: 'none' });
  });

  it('answers 503 with the build command when the dashboard is not built', async () => {
    const missing = await appWith(path.join(dist, 'nope'));
    try {
      const res = await missing.app.inject({ method: 'GET', url: '/dashboard/decisions' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.body).toBe(DASHBOARD_NOT_BUILT);
      expect(res.body).toContain('dashboard not built: run npm run build');
    } finally {
      await missing.close();
    }
  });
});
