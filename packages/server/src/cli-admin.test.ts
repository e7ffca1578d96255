import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from './cli.ts';
import { openDatabase } from './storage/db.ts';
import { BIN, type Run } from './testing/warden-bin.ts';
import { sha256Hex } from './workspace/tokens.ts';

/** Run the CLI in-process, capturing what it writes. */
async function run(args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('warden CLI', () => {
  let dir: string;
  let data: string[];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-cli-'));
    data = ['--data-dir', dir];
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function query<T>(fn: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>): Promise<T> {
    const database = openDatabase({ sqlitePath: path.join(dir, 'warden.db') });
    try {
      return await fn(database.db);
    } finally {
      await database.close();
    }
  }

  it('init prints only the JSON of a new workspace, owner and site', async () => {
    const res = await run([
      'init',
      '--email',
      'Owner@Example.test',
      '--password',
      'password-123',
      '--plan',
      'pro',
      '--origin',
      'https://shop.example',
      ...data,
      '--origin=http://localhost:3000',
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(Object.keys(out).sort()).toEqual(['secretKey', 'siteId', 'siteKey', 'userId', 'workspaceId']);
    expect(out.siteKey).toMatch(/^pk_/);
    expect(out.secretKey).toMatch(/^sk_/);
    const site = await query((db) =>
      db.selectFrom('sites').selectAll().where('id', '=', out.siteId).executeTakeFirstOrThrow(),
    );
    expect(site.secret_key_hash).toBe(sha256Hex(out.secretKey));
    expect(JSON.parse(site.allowed_origins)).toEqual(['https://shop.example', 'http://localhost:3000']);
    const ws = await query((db) =>
      db.selectFrom('workspaces').selectAll().where('id', '=', out.workspaceId).executeTakeFirstOrThrow(),
    );
    expect(ws.plan).toBe('pro');
  });

  it('init takes the password from WARDEN_PASSWORD, and refuses to run without one', async () => {
    process.env.WARDEN_PASSWORD = 'password-from-env';
    try {
      const res = await run(['init', '--email', 'env@example.test', ...data]);
      expect(res.code, res.stderr).toBe(0);
    } finally {
      delete process.env.WARDEN_PASSWORD;
    }
    const again = await run([
      'init',
      '--email',
      'env@example.test',
      '--password',
      'password-from-env',
      ...data,
    ]);
    expect(again.code, again.stderr).toBe(0);
    // Vitest's standard input is not a terminal: no prompt, a usage error.
    const none = await run(['init', '--email', 'none@example.test', ...data]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('a password is required: --password-stdin, WARDEN_PASSWORD');
  });

  it('init again creates another workspace for the same account (right password only)', async () => {
    const first = JSON.parse(
      (await run(['init', '--email', 'again@example.test', '--password', 'password-123', ...data])).stdout,
    );
    const second = await run([
      'init',
      '--email',
      'AGAIN@example.test',
      '--password',
      'password-123',
      ...data,
    ]);
    expect(second.code).toBe(0);
    const out = JSON.parse(second.stdout);
    expect(out.userId).toBe(first.userId);
    expect(out.workspaceId).not.toBe(first.workspaceId);
    const ws = await query((db) =>
      db.selectFrom('workspaces').selectAll().where('id', '=', out.workspaceId).executeTakeFirstOrThrow(),
    );
    expect(ws.plan).toBe('free');
    const wrong = await run([
      'init',
      '--email',
      'again@example.test',
      '--password',
      'wrong-password',
      ...data,
    ]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toContain('password does not match');
  });

  it('init refuses bad input with exit code 2 and nothing on stdout', async () => {
    for (const args of [
      ['init', '--password', 'password-123'],
      ['init', '--email', 'a@example.test', '--password', 'short'],
      ['init', '--email', 'a@example.test', '--password', 'password-123', '--plan', 'gold'],
      [
        'init',
        '--email',
        'a@example.test',
        '--password',
        'password-123',
        '--origin',
        'https://a.example/path',
      ],
      ['init', '--email', 'a@example.test', '--password', 'password-123', '--bogus', 'x'],
      ['init', '--email', 'not-an-email', '--password', 'password-123'],
    ]) {
      const res = await run([...args, ...data]);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(/^warden init: /);
    }
  });

  it('user add, workspace plan and site create', async () => {
    const { workspaceId } = JSON.parse(
      (await run(['init', '--email', 'boss@example.test', '--password', 'password-123', ...data])).stdout,
    );
    // The same e-mail each time: a second add is the duplicate the CLI refuses.
    const addAnalyst = (role: string) =>
      run([
        'user',
        'add',
        '--workspace',
        workspaceId,
        '--email',
        'analyst@example.test',
        '--password',
        'password-456',
        '--role',
        role,
        ...data,
      ]);
    const added = await addAnalyst('analyst');
    expect(added.code).toBe(0);
    const { userId } = JSON.parse(added.stdout);
    const membership = await query((db) =>
      db.selectFrom('memberships').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow(),
    );
    expect(membership).toMatchObject({ workspace_id: workspaceId, role: 'analyst' });
    const dup = await addAnalyst('viewer');
    expect(dup.code).toBe(1);

    const plan = await run(['workspace', 'plan', workspaceId, 'enterprise', ...data]);
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout)).toEqual({ workspaceId, plan: 'enterprise' });

    const site = await run([
      'site',
      'create',
      '--workspace',
      workspaceId,
      '--name',
      'Shop',
      '--origin',
      'https://b.example',
      ...data,
    ]);
    expect(site.code).toBe(0);
    const out = JSON.parse(site.stdout);
    expect(Object.keys(out).sort()).toEqual(['secretKey', 'siteId', 'siteKey']);
  });

  it('reports unknown workspaces, bad roles and bad plans on stderr', async () => {
    const cases: Array<[string[], number]> = [
      [['workspace', 'plan', 'nope', 'pro'], 1],
      [['workspace', 'plan', 'nope', 'gold'], 2],
      [['workspace', 'plan'], 2],
      [['site', 'create', '--workspace', 'nope', '--name', 'x'], 1],
      [['site', 'create', '--name', 'x'], 2],
      [
        [
          'user',
          'add',
          '--workspace',
          'nope',
          '--email',
          'x@example.test',
          '--password',
          'password-1',
          '--role',
          'owner',
        ],
        1,
      ],
      [
        [
          'user',
          'add',
          '--workspace',
          'w',
          '--email',
          'x@example.test',
          '--password',
          'password-1',
          '--role',
          'admin',
        ],
        2,
      ],
      [['user', 'remove'], 2],
    ];
    for (const [args, code] of cases) {
      const res = await run([...args, ...data]);
      expect(res.code, args.join(' ')).toBe(code);
      expect(res.stdout).toBe('');
      expect(res.stderr.length).toBeGreaterThan(0);
    }
  });

  it('runs as the real binary', { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        BIN,
        'init',
        '--email',
        'bin@example.test',
        '--password',
        'password-123',
        '--origin',
        'https://c.example',
      ],
      { env: { ...process.env, WARDEN_DATA_DIR: dir, WARDEN_LOG_LEVEL: 'silent' } },
    );
    const out = JSON.parse(stdout);
    expect(out.workspaceId).toEqual(expect.any(String));
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });
});
