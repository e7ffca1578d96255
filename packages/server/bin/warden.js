#!/usr/bin/env node
// The `warden` CLI: runs the server built into dist/warden.mjs (built by `npm install` and
// `npm run build`; packages/server/scripts/build.js). In a checkout whose sources changed since
// that build, it rebuilds first (about a second; esbuild is a development dependency), so what
// runs is what is in src/. Checking costs a few milliseconds of file stats.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = path.join(PACKAGE_DIR, 'dist', 'warden.mjs');
/** What goes into the build: this package's sources and manifest, and @warden/protocol's sources. */
const INPUTS = [
  path.join(PACKAGE_DIR, 'src'),
  path.join(PACKAGE_DIR, 'package.json'),
  path.join(PACKAGE_DIR, '..', 'protocol', 'src'),
];

function modifiedAt(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The newest modification time of a file or anything below a folder (0 when missing). */
function newestChange(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestChange(path.join(target, entry)));
  return newest;
}

async function ensureBuilt() {
  // The installed server package (npm run package) ships the build without sources or build script.
  if (!fs.existsSync(path.join(PACKAGE_DIR, 'scripts', 'bundle.js'))) return;
  const built = modifiedAt(ENTRY);
  if (built !== undefined && INPUTS.every((input) => newestChange(input) <= built)) return;
  let buildCli;
  try {
    ({ buildCli } = await import('../scripts/bundle.js'));
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    if (built === undefined) {
      process.stderr.write(
        'warden: dist/warden.mjs is not built and esbuild is not installed: run npm run build\n',
      );
      process.exit(1);
    }
    process.stderr.write('warden: the sources changed since dist/warden.mjs was built; run npm run build\n');
    return;
  }
  try {
    await buildCli();
  } catch (err) {
    // A read-only install keeps running the build it has.
    if (built === undefined || !['EACCES', 'EPERM', 'EROFS'].includes(err?.code)) throw err;
  }
}

await ensureBuilt();
const { main } = await import(pathToFileURL(ENTRY).href);
const code = await main(process.argv.slice(2));
// A command that failed exits now, even with handles still open (a half-started server's database
// pool, writer thread or timers): a supervisor must learn of a failed start at once.
if (code !== 0) process.exit(code);
process.exitCode = code;
