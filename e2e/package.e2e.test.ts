// The production artefact: `npm run package` writes dist/warden-server-<version>.tgz; installed with
// `npm install --omit=dev` into an empty folder (from npm's local cache, --prefer-offline), its
// `npx warden serve` answers /healthz, /dashboard/ and /sdk/v1/warden.js, and the installed
// node_modules stays within 150 MB. Slow: the build, the install, and better-sqlite3's native
// module (compiled from source when no prebuilt binary can be fetched).
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INSTALLED_LIMIT_BYTES = 150 * 1024 * 1024;
/** Asynchronous: a synchronous child process of minutes would stall vitest's worker channel. */
const run = promisify(execFile);

function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += sizeOf(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

describe('the server package', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-package-install-'));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('builds, installs in an empty folder without development dependencies, and serves', {
    timeout: 40 * 60_000,
  }, async () => {
    const { stdout: log } = await run('node', ['--import', 'tsx', 'scripts/package.ts'], { cwd: ROOT });
    const tgz = /dist\/(warden-server-[\d.]+\.tgz)/.exec(log)?.[1];
    expect(tgz).toBeDefined();
    await run(
      'npm',
      ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', path.join(ROOT, 'dist', tgz!)],
      { cwd: folder, maxBuffer: 64 * 1024 * 1024 },
    );
    const modules = path.join(folder, 'node_modules');
    expect(sizeOf(modules)).toBeLessThanOrEqual(INSTALLED_LIMIT_BYTES);
    for (const development of ['vitest', 'esbuild', 'tsx', 'playwright-core', '@biomejs', 'typescript']) {
      expect(fs.existsSync(path.join(modules, development))).toBe(false);
    }

    const child = spawn('npx', ['warden', 'serve', '--port', '0'], {
      cwd: folder,
      env: { ...process.env, WARDEN_DATA_DIR: path.join(folder, 'data'), WARDEN_HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: npx runs warden as a child, and both must stop at the end.
      detached: true,
    });
    try {
      let stdout = '';
      const base = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "warden serving" line:\n${stdout}`)), 120_000);
        child.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${stdout}`)));
        child.stdout.on('data', (chunk) => {
          stdout += String(chunk);
          const address = /"address":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(stdout)?.[1];
          if (address) {
            clearTimeout(timer);
            resolve(address);
          }
        });
      });
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      const dashboard = await fetch(`${base}/dashboard/`);
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain('<div id="root">');
      const sdk = await fetch(`${base}/sdk/v1/warden.js`);
      expect(sdk.status).toBe(200);
      expect((await sdk.text()).length).toBeGreaterThan(10_000);
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    }
  });
});
