import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Database, migrate, openDatabase } from '../storage/db.ts';
import { createTestApp, openTestDatabase } from '../testing/context.ts';
import { demoOrigins, seedDemo } from './demo-seed.ts';
import { NO_SITE_CACHE } from './site-key-cache.ts';
import { sha256Hex } from './tokens.ts';

describe('demo seed', () => {
  let dir: string;
  let database: Database;
  const logger = pino({ level: 'silent' });
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-demo-'));
    database = await openTestDatabase();
  });
  afterEach(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const deps = () => ({ database, dataDir: dir, logger, now: Date.now, sites: NO_SITE_CACHE });

  it('derives the server origins from host and port', () => {
    expect(demoOrigins('127.0.0.1', 8080)).toEqual(['http://127.0.0.1:8080', 'http://localhost:8080']);
    expect(demoOrigins('0.0.0.0', 9000)).toEqual(['http://127.0.0.1:9000', 'http://localhost:9000']);
    expect(demoOrigins('Warden.Example', 80)).toEqual([
      'http://127.0.0.1',
      'http://localhost',
      'http://warden.example',
    ]);
    expect(demoOrigins('::1', 8080)).toContain('http://[::1]:8080');
  });

  it('seeds a pro demo workspace once and writes the credentials file with mode 0600', async () => {
    const origins = demoOrigins('127.0.0.1', 8080);
    const creds = await seedDemo(deps(), origins);
    expect(creds).not.toBeNull();
    const file = path.join(dir, 'demo-credentials.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(Object.keys(saved).sort()).toEqual(
      ['email', 'password', 'secretKey', 'siteId', 'siteKey', 'workspaceId'].sort(),
    );
    expect(saved).toEqual(creds);
    const db = database.db;
    const workspace = await db.selectFrom('workspaces').selectAll().executeTakeFirstOrThrow();
    expect(workspace).toMatchObject({ id: saved.workspaceId, plan: 'pro', demo: 1 });
    const site = await db.selectFrom('sites').selectAll().executeTakeFirstOrThrow();
    expect(site.secret_key_hash).toBe(sha256Hex(saved.secretKey));
    expect(JSON.parse(site.allowed_origins)).toEqual(origins);

    // Restart: nothing new, the file is left alone.
    expect(await seedDemo(deps(), origins)).toBeNull();
    expect(await db.selectFrom('workspaces').select('id').execute()).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(saved);
  });

  it('adds the origins of a new port on restart instead of reseeding', async () => {
    await seedDemo(deps(), demoOrigins('127.0.0.1', 8080));
    await seedDemo(deps(), demoOrigins('127.0.0.1', 9090));
    const site = await database.db.selectFrom('sites').selectAll().executeTakeFirstOrThrow();
    expect(JSON.parse(site.allowed_origins)).toEqual([
      'http://127.0.0.1:8080',
      'http://localhost:8080',
      'http://127.0.0.1:9090',
      'http://localhost:9090',
    ]);
  });

  it('seeds at most once when several processes start together', async () => {
    const file = path.join(dir, 'shared.db');
    const a = openDatabase({ sqlitePath: file });
    const b = openDatabase({ sqlitePath: file });
    await migrate(a);
    const results = await Promise.all([
      seedDemo({ ...deps(), database: a }, ['http://localhost:1']),
      seedDemo({ ...deps(), database: b }, ['http://localhost:1']),
    ]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await a.db.selectFrom('workspaces').select('id').execute()).toHaveLength(1);
    await a.close();
    await b.close();
  });

  it('the demo owner can sign in with the printed password', async () => {
    const t = await createTestApp();
    try {
      const creds = await seedDemo({ ...deps(), database: t.ctx.database }, ['http://localhost:8080']);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: creds!.email, password: creds!.password },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.user.memberships[0]).toMatchObject({ role: 'owner', plan: 'pro' });
      const ws = await t.app.inject({
        url: '/api/workspaces',
        headers: { authorization: `Bearer ${res.json().data.accessToken}` },
      });
      expect(ws.json().data[0].demo).toBe(true);
    } finally {
      await t.close();
    }
  });
});
