import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestSite } from '../../server/src/testing/accounts.ts';
import { createTestApp, type TestApp } from '../../server/src/testing/context.ts';

/**
 * The SDKs as a shop installs them: `npm pack` (its prepack builds dist/), the tarballs installed
 * offline into a fresh project outside the repository, then used from plain `node` (ESM and
 * CommonJS) against a running Warden, and their declarations type-checked by tsc.
 */
const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CONSUMER = path.join(ROOT, 'packages/node/test/consumer');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

let work: string;
let project: string;
let server: TestApp;
let site: TestSite;
let baseUrl: string;

async function pack(packageDir: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: path.join(ROOT, packageDir),
    maxBuffer: 16 * 1024 * 1024,
  });
  const [info] = JSON.parse(stdout.slice(stdout.search(/^\[$/m))) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  if (!info) throw new Error(`npm pack printed no result in ${packageDir}`);
  return path.join(work, info.filename);
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-sdk-pack-'));
  project = path.join(work, 'shop');
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'shop', version: '1.0.0', private: true }),
  );
  const [nodeTarball, browserTarball] = await Promise.all([pack('packages/node'), pack('packages/browser')]);
  await run(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', nodeTarball as string, browserTarball as string],
    { cwd: project },
  );
  // The shop's own better-sqlite3 (the optional peer of the receiver-sqlite entry): the repository's
  // already compiled copy, so the test does not rebuild the native module.
  fs.symlinkSync(
    path.join(ROOT, 'node_modules/better-sqlite3'),
    path.join(project, 'node_modules/better-sqlite3'),
    'dir',
  );
  for (const file of fs.readdirSync(CONSUMER)) {
    fs.copyFileSync(path.join(CONSUMER, file), path.join(project, file));
  }
  server = await createTestApp();
  site = (await createTestWorkspace(server.ctx)).site;
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

async function scenario(file: string) {
  const { stdout } = await run(process.execPath, [file], {
    cwd: project,
    env: {
      PATH: process.env.PATH ?? '',
      WARDEN_URL: baseUrl,
      WARDEN_SITE_KEY: site.siteKey,
      WARDEN_SECRET_KEY: site.secretKey,
    },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string);
}

describe('the packed SDKs installed into a fresh project', () => {
  it('ships built JavaScript and declarations only, with no native dependency', () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(project, 'node_modules/@warden/node/package.json'), 'utf8'),
    );
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependenciesMeta['better-sqlite3'].optional).toBe(true);
    const installed = fs.readdirSync(path.join(project, 'node_modules/@warden/node/dist'));
    expect(installed.sort()).toEqual(['cjs', 'esm', 'types', 'types-cjs']);
    expect(fs.existsSync(path.join(project, 'node_modules/@warden/node/src'))).toBe(false);
    for (const name of fs.readdirSync(path.join(project, 'node_modules/@warden/node/dist/esm'))) {
      const code = fs.readFileSync(path.join(project, 'node_modules/@warden/node/dist/esm', name), 'utf8');
      expect(code.includes('better-sqlite3')).toBe(name === 'receiver-sqlite.js');
    }
  });

  it.each(['check.mjs', 'check.cjs'])(
    '%s: client call, bad options, signature check and SQLite receiver',
    async (file) => {
      const result = await scenario(file);
      expect(result.badOptions).toEqual({
        name: 'TypeError',
        message:
          'new Warden(options): options.baseUrl is required (the URL of your Warden server, e.g. https://warden.example.com).',
      });
      expect(['allow', 'review', 'challenge', 'block']).toContain(result.decision.action);
      expect(result.decision.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(result.wrongKey).toEqual({ isWardenError: true, status: 401, code: expect.any(String) });
      expect(result.signature).toEqual({
        good: true,
        tampered: { valid: false, reason: 'no_matching_signature' },
      });
      expect(result.receiver).toEqual({ first: 202, again: 200, forged: 401, processed: ['acct_packed'] });
    },
  );

  it('imports @warden/browser as an ES module', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('@warden/browser'); console.log(Object.keys(m).sort().join(','))",
      ],
      { cwd: project },
    );
    expect(stdout.trim().split(',')).toEqual(expect.arrayContaining(['SDK_VERSION', 'WardenError', 'load']));
  });

  it('type-checks a TypeScript consumer against the installed declarations (import and require)', async () => {
    const args = [
      TSC,
      '--noEmit',
      '--strict',
      // What most projects set; a declaration that did not resolve would still fail below, as
      // types-esm.mts expects an error (@ts-expect-error) that an `any` would not raise.
      '--skipLibCheck',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--lib',
      'es2023,dom',
      '--typeRoots',
      path.join(ROOT, 'node_modules/@types'),
      '--types',
      'node',
      'types-esm.mts',
      'types-cjs.cts',
    ];
    const outcome = await run(process.execPath, args, { cwd: project }).then(
      () => 'ok',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(outcome).toBe('ok');
  }, 60_000);
});
