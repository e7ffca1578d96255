// `npm run package`: one installable server package, dist/warden-server-<version>.tgz, holding the
// built server (packages/server/dist), the decision writer thread's modules, the dashboard and the
// browser SDK builds, the demo page and a compact copy of the IP-range tables; its dependencies are
// the server's runtime dependencies only. `npm install --omit=dev <tgz>` then `npx warden serve`
// runs it (docs/operations.md, "Installing the package"). Run `npm run build` first (the package
// script does).
//
// The layout keeps the monorepo's packages/ directory as the package root (server/, dashboard/,
// browser/), so every path the server builds from import.meta.url (packages/server/src/paths.ts)
// resolves the same in the package as in a checkout.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compactAsnTables } from './compact-ip-tables.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = path.join(ROOT, 'packages');
const OUT_DIR = path.join(ROOT, 'dist');
const PACKAGE_NAME = 'warden-server';

/** Bundled into dist/ by packages/server/scripts/bundle.js, or shipped as files here: not dependencies. */
const NOT_INSTALLED = new Set([
  'kysely',
  'jose',
  '@ip-location-db/asn',
  '@ip-location-db/geo-whois-asn-country',
]);

/** Built files the package needs; a missing one means `npm run build` did not run. */
const BUILT = [
  'server/dist/warden.mjs',
  'dashboard/dist/index.html',
  'browser/dist/warden.js',
  'browser/dist/sha256.wasm',
];

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
}

function copy(from: string, to: string): void {
  fs.cpSync(path.join(PACKAGES, from), to, { recursive: true });
}

function runtimeDependencies(server: Record<string, unknown>): Record<string, string> {
  const all = server.dependencies as Record<string, string>;
  return Object.fromEntries(
    Object.entries(all).filter(([name]) => !name.startsWith('@warden/') && !NOT_INSTALLED.has(name)),
  );
}

function ipLocationDir(name: string): string {
  return path.dirname(
    createRequire(path.join(PACKAGES, 'server', 'package.json')).resolve(`${name}/package.json`),
  );
}

async function stage(dir: string): Promise<void> {
  for (const file of BUILT) {
    if (!fs.existsSync(path.join(PACKAGES, file))) throw new Error(`${file} is missing: run npm run build`);
  }
  const server = readJson(path.join(PACKAGES, 'server', 'package.json'));
  const root = readJson(path.join(ROOT, 'package.json'));
  fs.mkdirSync(path.join(dir, 'server'), { recursive: true });
  copy('server/bin', path.join(dir, 'server', 'bin'));
  for (const file of fs.readdirSync(path.join(PACKAGES, 'server', 'dist'))) {
    if (file.endsWith('.mjs')) copy(`server/dist/${file}`, path.join(dir, 'server', 'dist', file));
  }
  // The decision writer thread runs these plain modules from src/ (decisions/writer-thread.ts).
  for (const file of [
    'decisions/decision-writer.worker.mjs',
    'decisions/decision-commit.mjs',
    'storage/sqlite-connection.mjs',
  ]) {
    copy(`server/src/${file}`, path.join(dir, 'server', 'src', file));
  }
  fs.writeFileSync(
    path.join(dir, 'server', 'package.json'),
    `${JSON.stringify({ name: '@warden/server', version: server.version, private: true, type: 'module' }, null, 2)}\n`,
  );
  copy('dashboard/dist', path.join(dir, 'dashboard', 'dist'));
  for (const file of ['warden.js', 'warden.mjs', 'warden-worker.js', 'sha256.wasm']) {
    copy(`browser/dist/${file}`, path.join(dir, 'browser', 'dist', file));
  }
  copy('browser/demo', path.join(dir, 'browser', 'demo'));
  await compactAsnTables(
    ipLocationDir('@ip-location-db/asn'),
    ipLocationDir('@ip-location-db/geo-whois-asn-country'),
    path.join(dir, 'ip-db'),
  );
  fs.copyFileSync(path.join(ROOT, 'LICENSE'), path.join(dir, 'LICENSE'));
  fs.writeFileSync(
    path.join(dir, 'README.md'),
    '# Warden server\n\nThe built Warden server with its dashboard and browser SDK. `npx warden serve` runs it;\n' +
      'see docs/operations.md in the Warden repository. `ip-db/` holds compact copies of the\n' +
      '@ip-location-db tables (licences beside them).\n',
  );
  const manifest = {
    name: PACKAGE_NAME,
    version: server.version,
    description: root.description,
    license: root.license,
    type: 'module',
    bin: { warden: 'server/bin/warden.js' },
    engines: root.engines,
    dependencies: runtimeDependencies(server),
  };
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-package-'));
try {
  await stage(staging);
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', OUT_DIR], {
    cwd: staging,
    encoding: 'utf8',
  });
  const [packed] = JSON.parse(output) as Array<{ filename: string; size: number; unpackedSize: number }>;
  if (!packed) throw new Error('npm pack wrote nothing');
  const mb = (n: number) => (n / 1e6).toFixed(1);
  console.log(
    `[warden package] ${path.relative(process.cwd(), path.join(OUT_DIR, packed.filename))}: ${mb(packed.size)} MB, ${mb(packed.unpackedSize)} MB unpacked`,
  );
} finally {
  fs.rmSync(staging, { recursive: true, force: true });
}
