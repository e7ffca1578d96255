import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/context.ts';

const built = fs.existsSync(fileURLToPath(new URL('../../../../browser/dist/warden.js', import.meta.url)));
if (!built) console.warn('[warden tests] SDK serving checks not run: run `npm run build:browser` first.');

describe('static routes: /sdk and /demo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it.skipIf(!built)('serves the SDK with cache headers, ETag, CORS and the integrity hash', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sdk/v1/warden.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/javascript');
    expect(res.headers['cache-control']).toContain('max-age=3600');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['x-warden-integrity'])).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
    const etag = String(res.headers.etag);
    const again = await t.app.inject({
      method: 'GET',
      url: '/sdk/v1/warden.js',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    const manifest = await t.app.inject({ method: 'GET', url: '/sdk/v1/integrity.json' });
    expect(manifest.json().files['warden.js'].integrity).toBe(res.headers['x-warden-integrity']);
  });

  it('answers 404 for other files under /sdk/v1', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sdk/v1/..%2Fpackage.json' });
    expect(res.statusCode).toBe(404);
  });

  it('serves /demo, saying so when no demo workspace is seeded', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/demo' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('data-site-key=""');
    expect(res.body).toContain('No demo workspace is seeded');
  });
});
