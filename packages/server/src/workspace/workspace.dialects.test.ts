import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../testing/accounts.ts';
import { createTestApp, testDialects } from '../testing/context.ts';
import { seedDemo } from './demo-seed.ts';

/** The workspace flows on every dialect (PostgreSQL when WARDEN_TEST_DATABASE_URL is set). */
describe.each(testDialects())('workspace management on %s', (dialect) => {
  it('signs in, manages sites and members, and seeds the demo once', { timeout: 60_000 }, async () => {
    const t = await createTestApp({ dialect });
    try {
      const w = await createTestWorkspace(t.ctx, { plan: 'pro' });
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: w.owner.email, password: w.owner.password },
      });
      expect(login.statusCode).toBe(200);
      const headers = { authorization: `Bearer ${login.json().data.accessToken}` };
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/sites',
        headers,
        payload: { workspaceId: w.workspaceId, name: 'S', allowedOrigins: ['https://a.example'] },
      });
      expect(created.statusCode).toBe(201);
      const id = created.json().data.id;
      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/api/sites/${id}`,
        headers,
        payload: { allowedOrigins: ['https://b.example'], settings: { powFloor: 15 } },
      });
      expect(patched.json().data).toMatchObject({
        allowedOrigins: ['https://b.example'],
        settings: { powFloor: 15 },
      });
      const rotated = await t.app.inject({ method: 'POST', url: `/api/sites/${id}/rotate-keys`, headers });
      expect(rotated.statusCode).toBe(200);
      const demote = await t.app.inject({
        method: 'PATCH',
        url: `/api/workspaces/${w.workspaceId}/members/${w.owner.userId}`,
        headers,
        payload: { role: 'viewer' },
      });
      expect(demote.statusCode).toBe(409);
      const list = await t.app.inject({ url: '/api/sites', headers });
      expect(list.json().data).toHaveLength(2);

      const deps = {
        database: t.ctx.database,
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'warden-dialect-')),
        logger: t.ctx.logger,
        now: Date.now,
        sites: t.ctx.services.siteKeys,
      };
      expect(await seedDemo(deps, ['http://localhost:1'])).not.toBeNull();
      expect(await seedDemo(deps, ['http://localhost:1'])).toBeNull();
      fs.rmSync(deps.dataDir, { recursive: true, force: true });
      const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers });
      expect(out.statusCode).toBe(200);
      expect((await t.app.inject({ url: '/api/auth/me', headers })).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
